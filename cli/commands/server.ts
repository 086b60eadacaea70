// yard serve | status | stop
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "commander";
import { yardHome } from "../../server/config";
import { YardError } from "../../server/core/errors";
import { hostPaths, processAlive } from "../../server/panehost/protocol";
import { paneMarkers } from "../connection";
import type { CliContext } from "../context";
import { toCliError } from "../output";

export function registerServer(program: Command, ctx: CliContext) {
  program
    .command("serve")
    .description("Start the board in the foreground (npm start runs it in the background); --port N, --host H, --dev")
    .allowUnknownOption(true)
    .helpOption(false)
    .argument("[options...]")
    .action(async (args: string[]) => {
      // The server reads the install token and prints the login link: never from inside a pane.
      const markers = paneMarkers(process.env, process.cwd(), yardHome());
      if (markers.length)
        throw new YardError(
          "UNAUTHORIZED",
          `This looks like a Switchyard pane (${markers.join("; ")}): yard serve runs the board as you, with the install token, and is never started from inside a pane`,
          { markers },
        );
      // Two levels below the repository root both here (cli/commands/) and in the bundle (cli/dist/).
      const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
      // The server runs in this process from its bundle (server/dist/main.mjs), rebuilt first
      // when a source changed (the build script is loaded at run time, not bundled into the CLI).
      const build = (await import(pathToFileURL(path.join(root, "scripts/build-server.mjs")).href)) as {
        SERVER_BUNDLE: string;
        buildServer(): Promise<unknown>;
        serverBundleIsFresh(): Promise<boolean>;
      };
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
      const loginUrl =
        conn.source === "data-dir" ? `${conn.url}/login?token=${encodeURIComponent(conn.token)}` : undefined;
      ctx
        .out()
        .result({ ...status, url: conn.url, loginUrl }, () =>
          [
            `Switchyard ${status.version} is running at ${conn.url}`,
            status.home ? `data dir: ${status.home}` : "",
            `${status.projects} project(s), ${status.tasks} task(s), ${status.panes} pane(s)`,
            status.sandboxed !== undefined ? `this pane is ${status.sandboxed ? "sandboxed" : "not sandboxed"}` : "",
            status.sandbox
              ? `sandbox: ${status.sandbox.available ? "available" : `unavailable: ${status.sandbox.message}`}`
              : "",
            loginUrl ? `login link: ${loginUrl}` : "",
          ]
            .filter(Boolean)
            .join("\n"),
        );
    });

  program
    .command("stop")
    .description(
      "Stop the server; its agents keep running in the pane host. --all: stop every agent and the pane host too",
    )
    .option("--all", "also stop every running agent and the pane host")
    .action(async (o: { all?: boolean }) => {
      const all = Boolean(o.all);
      const home = yardHome();
      let serverPid: number | null = null;
      let hostPid: number | null = null;
      let agents: number | null = 0;
      try {
        const r = await ctx.client().server.stop.mutate({ all });
        ({ serverPid, hostPid, agents } = r);
      } catch (e) {
        if (toCliError(e).code !== "SERVER_UNAVAILABLE") throw e;
        if (!all) throw new YardError("SERVER_UNAVAILABLE", `Switchyard is not running for data dir ${home}`, { home });
        // No server: stop the pane host itself. Its SIGTERM is its shutdown (it ends its agents,
        // records their exits for the next server, then exits), whatever version started it, so
        // the CLI needs none of the host's protocol (and none of its contract's zod) for this.
        hostPid = pidFrom(hostPaths(home).pid);
        if (hostPid === null || !processAlive(hostPid, "panehost"))
          throw new YardError(
            "SERVER_UNAVAILABLE",
            `Neither the server nor a pane host is running for data dir ${home}`,
            {
              home,
            },
          );
        process.kill(hostPid, "SIGTERM");
        agents = null;
      }
      if (all && hostPid === null) hostPid = pidFrom(hostPaths(home).pid);
      const waited = await waitGone([serverPid, all ? hostPid : null], 30_000);
      ctx
        .out()
        .result(
          { stopped: { server: serverPid !== null, host: all && hostPid !== null }, agents, all, exited: waited },
          () =>
            all
              ? `Stopped Switchyard${agents === null ? " and its agents" : agents ? ` and ${agents} agent(s)` : ""}.`
              : `Stopped the server${agents ? `; ${agents} agent(s) keep running (yard serve reattaches to them, yard stop --all ends them)` : ""}.`,
        );
    });
}

function pidFrom(file: string): number | null {
  try {
    const n = Number(readFileSync(file, "utf8").trim());
    return n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** Waits until every given process has exited; false if one is still there at the deadline. */
async function waitGone(pids: Array<number | null>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (pids.every((p) => p === null || !processAlive(p))) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}
