// Entry point: `yard serve` / `npm run serve` (production; builds the UI first when needed),
// `npm start` (the same, detached: --background, see background.ts) and `npm run dev`. Starts the server process (over HTTPS
// with --tls-cert/--tls-key, read and checked first), prints the board URL and the login link, and shuts
// down cleanly on SIGINT/SIGTERM — leaving the agents running in the pane host, so a restart or
// an upgrade loses nothing. `yard stop --all` stops the agents and the pane host too.
import "./v8-flags"; // first: before any module that compiles WebAssembly
import { REPO_ROOT } from "./root";
import { exposureWarnings, parseServeArgs, yardHome } from "./config";
import { buildIsStale, runNextBuild } from "./build";
import { runInBackground } from "./background";
import { startServer } from "./http";
import { loadTls, type TlsMaterial } from "./security/tls";

const root = REPO_ROOT;

async function main() {
  let opts;
  try {
    opts = parseServeArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`switchyard: ${(e as Error).message}`);
    process.exit(2);
  }
  // Read at start (and before going to the background), so a wrong file is refused at once.
  let tls: TlsMaterial | undefined;
  try {
    tls = opts.tlsCert && opts.tlsKey ? loadTls(opts.tlsCert, opts.tlsKey) : undefined;
  } catch (e) {
    console.error(`switchyard: ${(e as Error).message}`);
    process.exit(2);
  }
  if (opts.background) {
    const args = process.argv.slice(2).filter((a) => a !== "--background");
    process.exit(await runInBackground({ home: yardHome(), bundle: process.argv[1]!, args }));
  }
  const ui = process.env.YARD_NO_UI !== "1";
  process.chdir(root);
  if (!opts.dev) (process.env as Record<string, string>).NODE_ENV = "production";
  if (ui && !opts.dev) {
    const { stale, reason } = buildIsStale(root);
    if (stale) {
      console.log(`switchyard: ${reason}.`);
      await runNextBuild(root, (l) => console.log(`switchyard: ${l}`));
    }
  }
  for (const warning of exposureWarnings(opts, Boolean(tls)))
    for (const line of warning.split("\n")) console.warn(`switchyard: ${line}`);
  if (tls && tls.notAfter.getTime() < Date.now())
    console.warn(
      `switchyard: WARNING: the certificate in ${opts.tlsCert} expired on ${tls.notAfter.toISOString()}: browsers and yard refuse it`,
    );
  const home = yardHome();
  const server = await startServer({
    home,
    host: opts.host,
    port: opts.port,
    dev: opts.dev,
    ui,
    publicUrl: opts.publicUrl,
    trustProxy: opts.trustProxy,
    databaseUrl: opts.databaseUrl,
    ...(tls ? { tls: { cert: tls.cert, key: tls.key } } : {}),
  });
  // Before the line that says it runs (what scripts and tests wait for): everything about the
  // start is printed once that line is.
  if (server.services.database.provider === "postgresql")
    console.log(`switchyard: the board's database is PostgreSQL at ${server.services.database.where}`);
  console.log(`Switchyard is running at ${server.url}  (data: ${home})`);
  console.log(`Open this login link once in your browser: ${server.loginUrl}`);

  let stopping = false;
  const stop = async (why: string, all: boolean) => {
    if (stopping) return;
    stopping = true;
    const running = server.services.panes.liveCount;
    console.log(
      `switchyard: ${why}, shutting down…${all ? " (stopping every agent and the pane host)" : running ? ` ${running} agent(s) keep running in the pane host; \`yard stop --all\` stops them` : ""}`,
    );
    const force = setTimeout(() => process.exit(1), all ? 20_000 : 10_000);
    force.unref();
    await server.close({ stopPanes: all });
    process.exit(0);
  };
  server.services.requestStop = (all) => void stop(all ? "yard stop --all" : "yard stop", all);
  process.on("SIGINT", () => void stop("SIGINT", false));
  process.on("SIGTERM", () => void stop("SIGTERM", false));
}

main().catch((e: Error) => {
  console.error(`switchyard: ${e.message}`);
  process.exit(1);
});
