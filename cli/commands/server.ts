// yard serve | status
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import type { CliContext } from "../context";

/** Set to true by the CLI build (scripts/build-cli.mjs); undefined when running through tsx. */
declare const __YARD_CLI_BUNDLE__: boolean | undefined;

export function registerServer(program: Command, ctx: CliContext) {
  program
    .command("serve")
    .description("Start the board (the same as npm start); --port N, --host H, --dev")
    .allowUnknownOption(true)
    .helpOption(false)
    .argument("[options...]")
    .action(async (args: string[]) => {
      // Two levels below the repository root both here (cli/commands/) and in the bundle (cli/dist/).
      const main = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../server/main.ts");
      // The server runs in this process from its TypeScript sources: the bundle has to load tsx
      // for that (the tsx fallback path already has it).
      if (typeof __YARD_CLI_BUNDLE__ !== "undefined") (await import("tsx/esm/api")).register();
      process.argv = [process.argv[0]!, main, ...args];
      await import(main);
    });

  program
    .command("status")
    .description("Is the server up? Where is it, what does it hold, and the login link")
    .action(async () => {
      const conn = ctx.conn();
      const status = await ctx.client().status.query();
      const loginUrl = conn.source === "data-dir" ? `${conn.url}/login?token=${encodeURIComponent(conn.token)}` : undefined;
      ctx.out().result({ ...status, url: conn.url, loginUrl }, () =>
        [
          `Switchyard ${status.version} is running at ${conn.url}`,
          status.home ? `data dir: ${status.home}` : "",
          `${status.projects} project(s), ${status.tasks} task(s), ${status.panes} pane(s)`,
          status.sandboxed !== undefined ? `this pane is ${status.sandboxed ? "sandboxed" : "not sandboxed"}` : "",
          status.sandbox ? `sandbox: ${status.sandbox.available ? "available" : `unavailable: ${status.sandbox.message}`}` : "",
          loginUrl ? `login link: ${loginUrl}` : "",
        ]
          .filter(Boolean)
          .join("\n"),
      );
    });
}
