// Entry point of the pane host process (started by the server: see client.ts). It runs as the
// bundle scripts/build-server.mjs builds:
//   node server/dist/panehost.mjs --home <data dir>
// (from source, `npm run dev` and tests of modules: node --import tsx server/panehost/main.ts).
// Runs until it has had no pane, no server and nothing undelivered for YARD_HOST_IDLE_MS
// (default 5 s), or until SIGTERM/SIGINT or a `shutdown` request, which end every pane first.
// A second host for the same data dir exits at once (the pidfile lock), with code 0.
import { PaneHost } from "./host";

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const home = arg("--home");
if (!home) {
  console.error("usage: panehost --home <data dir>");
  process.exit(2);
}
const envInt = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
const host = new PaneHost({
  home,
  idleMs: envInt("YARD_HOST_IDLE_MS"),
  workers: envInt("YARD_HOST_WORKERS"),
  onStopped: () => process.exit(0),
});

// A bug in one handler must not take every agent down with the host.
process.on("uncaughtException", (e) => console.error(`${new Date().toISOString()} uncaught: ${e.stack ?? e}`));
process.on("unhandledRejection", (e) =>
  console.error(`${new Date().toISOString()} unhandled rejection: ${(e as Error)?.stack ?? e}`),
);
process.on("SIGHUP", () => {}); // no controlling terminal to lose; never die of it
for (const sig of ["SIGTERM", "SIGINT"] as const) {
  process.on(sig, () => {
    setTimeout(() => process.exit(1), 20_000); // stopping must never hang the process
    void host.stop(sig, { stopPanes: true });
  });
}

let started: boolean;
try {
  started = await host.start();
} catch (e) {
  console.error(`${new Date().toISOString()} the pane host could not start: ${(e as Error).stack ?? e}`);
  process.exit(1);
}
if (!started) {
  console.log(`${new Date().toISOString()} another pane host holds ${home}; exiting`);
  process.exit(0);
}
