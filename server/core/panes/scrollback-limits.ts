// How much scrollback a pane may keep (YARD_SCROLLBACK_LINES): the bounds and their one check,
// apart from the mirror so that the server can check the setting without loading the terminal
// emulator.
export const MIN_SCROLLBACK = 5000;
/** The most a pane may keep: memory per live pane grows with it. */
export const MAX_SCROLLBACK = 100_000;

/** Why `lines` is not an allowed scrollback ("must be … from … to …"), or null when it is. */
export function scrollbackProblem(lines: number): string | null {
  return Number.isInteger(lines) && lines >= MIN_SCROLLBACK && lines <= MAX_SCROLLBACK
    ? null
    : `must be a whole number of lines from ${MIN_SCROLLBACK} to ${MAX_SCROLLBACK}`;
}
