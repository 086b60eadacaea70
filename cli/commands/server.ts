// yard serve | status
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "commander";
import type { CliContext } from "../context";

export function registerServer(program: Command, ctx: CliContext) {
  program
    .command("serve")
    .description("Start the board (the same as npm start); --port N, --host H, --dev")
    .allowUnknownOption(true)
    .helpOption(false)
    .argument("[options...]")
    .action(async (args: string[]) => {
      // Two levels below the repository root both here (cli/commands/) and in the bundle (cli/dist/).
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
      // The server runs in this process from its bundle (server/dist/main.mjs), rebuilt first
      // when a source changed (the build script is loaded at run time, not bundled into the CLI).
      const build = (await import(pathToFileURL(path.join(root, "scripts/build-server.mjs")).href)) as { SERVER_BUNDLE: string; buildServer(): Promise<unknown>; serverBundleIsFresh(): Promise<boolean> };
      if (!(await build.serverBundleIsFresh())) await build.buildServer();
      process.argv = [process.argv[0]!, build.SERVER_BUNDLE, ...args];
      await import(pathToFileURL(build.SERVER_BUNDLE).href);
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
