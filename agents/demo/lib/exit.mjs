// @ts-check
/**
 * Demo agent: the two ways a session ends on purpose. A clean exit posts SessionEnd (after
 * every earlier hook) and exits with the given code; a crash posts nothing more, lets the
 * hooks already posted through, and exits with its code. Both restore the terminal first.
 */
import { closeHooks, hooksPosted, postHook } from "./yard.mjs";
import { eraseSeq, out, print, restoreTerminal, setMode, ui } from "./screen.mjs";
import { dim, red } from "./text.mjs";

/**
 * Clean exit: SessionEnd (after every earlier hook), terminal restored, exit code.
 * @param {number} code @param {string} reason
 */
export async function shutdown(code, reason) {
  if (ui.mode === "exiting") return;
  out(eraseSeq());
  setMode("exiting");
  print(dim("Goodbye."));
  restoreTerminal();
  const last = postHook("SessionEnd", { reason });
  closeHooks();
  await last;
  process.exit(code);
}

/**
 * Crash: no Stop, no SessionEnd. Hooks already posted are let through first, so what the
 * server sees does not depend on timing.
 * @param {number} code
 */
export async function crash(code) {
  if (ui.mode === "exiting") return;
  out(eraseSeq());
  setMode("exiting");
  print(red(`✗ crashing with exit code ${code}`));
  restoreTerminal();
  closeHooks();
  await hooksPosted();
  process.exit(code);
}
