// Event type globs (`task.*`, `pane.lifecycle`): the one matcher used by the journal, its live
// subscriptions and the browser. Pure and dependency-free so the browser bundle can import it.

/**
 * Does `text` match `glob`, where only `*` is special (any run of characters)? Greedy matching
 * that backtracks only to the last `*`: at most O(|glob| · |text|) steps, never exponential
 * whatever the number of stars (a regex with many `.*` backtracks exponentially).
 */
export function globMatch(glob: string, text: string): boolean {
  let g = 0;
  let t = 0;
  let star = -1; // index in glob just after the last `*` seen
  let mark = 0; // where in text that `*` started matching
  while (t < text.length) {
    if (g < glob.length && glob[g] !== "*" && glob[g] === text[t]) {
      g++;
      t++;
    } else if (g < glob.length && glob[g] === "*") {
      while (g < glob.length && glob[g] === "*") g++; // a run of stars is one star
      star = g;
      mark = t;
    } else if (star !== -1) {
      g = star;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === "*") g++;
  return g === glob.length;
}
