// @ts-check
/**
 * Demo agent: `--script FILE`, a fixed reply per run. FILE holds sections separated by lines
 * that are exactly `---`; each prompt the agent is given runs the next unused section's
 * directives in its place (the prompt itself is still shown and posted as UserPromptSubmit).
 * Which sections are used is kept in `FILE.progress` (one line per section taken, appended; under
 * $HOME/.demo-script when FILE's directory is read-only, as inside the OS sandbox), so
 * a profile that starts a fresh agent for every review or plan behaves differently each time,
 * deterministically. When the sections run out, the prompt itself runs.
 */
import { createHash } from "node:crypto";
import { accessSync, appendFileSync, constants, mkdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * Where the sections used so far are counted: beside FILE, or (when its directory is read-only,
 * as in a sandbox) under $HOME/.demo-script.
 * @param {string} file
 */
function progressFile(file) {
  try {
    accessSync(path.dirname(file), constants.W_OK);
    return `${file}.progress`;
  } catch {
    const dir = path.join(os.homedir(), ".demo-script");
    mkdirSync(dir, { recursive: true });
    return path.join(dir, `${createHash("sha1").update(file).digest("hex").slice(0, 16)}.progress`);
  }
}

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
  const progress = progressFile(file);
  /** @type {number} */
  let used = 0;
  try {
    used = readFileSync(progress, "utf8").split("\n").filter(Boolean).length;
  } catch {
    used = 0;
  }
  if (used >= sections.length) return prompt;
  appendFileSync(progress, `${used + 1}\n`);
  return sections[used] ?? prompt;
}
