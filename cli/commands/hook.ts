// yard hook <Event>: listed here for help; bin/yard.js runs it directly from bin/hook.mjs
// (no TypeScript loader) because agents call it on every hook.
import type { Command } from "commander";

export function registerHook(program: Command) {
  program
    .command("hook <event> [payload]")
    .description("Post an agent hook (JSON on stdin, or as the argument) for this pane; always exits 0 within 2 s")
    .action(async (event: string, payload: string | undefined) => {
      const { runHook } = await import("../bin/hook.mjs");
      await runHook(event, payload);
    });
}
