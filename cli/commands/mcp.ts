// yard mcp: serves the CLI's operations as MCP tools over stdio (cli/mcp/server.ts), with the
// caller's own connection: the same URL and token the CLI would use, so the same role and gates.
// The MCP server is a bundle of its own (cli/dist/yard-mcp.mjs, scripts/build-cli.mjs), rebuilt
// here when one of its sources changed and loaded only by this command: the SDK costs the other
// commands nothing.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "commander";

export function registerMcp(program: Command) {
  program
    .command("mcp")
    .description(
      "Serve yard's operations as MCP tools on stdin/stdout (register it with: claude mcp add yard -- yard mcp)",
    )
    .action(async () => {
      // Two levels below the repository root both here (cli/commands/) and in the bundle (cli/dist/).
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
      // Loaded at run time, not bundled (as `yard serve` loads the server's build script).
      const load = (rel: string) => import(pathToFileURL(path.join(root, rel)).href);
      const { bundleIsFresh } = (await load("cli/bin/bundle.mjs")) as typeof import("../bin/bundle.mjs");
      const build = (await load("scripts/build-cli.mjs")) as {
        MCP_BUNDLE: string;
        MCP_STAMP: string;
        buildMcp(): Promise<unknown>;
      };
      if (!bundleIsFresh(build.MCP_STAMP, build.MCP_BUNDLE, root)) await build.buildMcp();
      const { serveMcp } = (await import(pathToFileURL(build.MCP_BUNDLE).href)) as typeof import("../mcp/server");
      await serveMcp();
      // The client closed stdin: stop, even while a call (a long task_wait) is still pending.
      process.exit(0);
    });
}
