// @ts-check
/**
 * Demo agent: `--script FILE`, a fixed reply per run. FILE holds sections separated by lines
 * that are exactly `---`; each prompt the agent is given runs the next unused section's
 * directives in its place (the prompt itself is still shown and posted as UserPromptSubmit).
 * Which sections are used is kept in `FILE.progress` (one line per section taken, appended), so
 * a profile that starts a fresh agent for every review or plan behaves differently each time,
 * deterministically. When the sections run out, the prompt itself runs.
 */
import { appendFileSync, readFileSync } from "node:fs";

/**
 * The directives to run for this prompt: the next section of the script, or the prompt.
 * @param {string | null} file
 * @param {string} prompt
 * @returns {string}
 */
export function scriptedPrompt(file, prompt) {
  if (!file) return prompt;
  /** @type {string} */
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return prompt;
  }
  const sections = text.split(/^---$/m).map((s) => s.trim());
  /** @type {number} */
  let used = 0;
  try {
    used = readFileSync(`${file}.progress`, "utf8").split("\n").filter(Boolean).length;
  } catch {
    used = 0;
  }
  if (used >= sections.length) return prompt;
  appendFileSync(`${file}.progress`, `${used + 1}\n`);
  return sections[used] ?? prompt;
}
