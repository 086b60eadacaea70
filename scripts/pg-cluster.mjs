// A throwaway PostgreSQL cluster for the tests and for writing PostgreSQL migrations: Debian's
// `postgresql` package (initdb, pg_ctl), a data dir under the temp dir, a free loopback port, trust
// authentication for the local user `yard`, durability off (fsync, synchronous commit: a crash
// loses nothing the tests care about). PostgreSQL refuses to run as root: as root, the cluster runs
// as the `postgres` account.
//
//   node scripts/pg-cluster.mjs start DIR   prints the cluster's URL (postgresql://yard@127.0.0.1:PORT/postgres)
//   node scripts/pg-cluster.mjs stop DIR    stops it and removes DIR
//   node scripts/pg-cluster.mjs available   exits 0 when initdb/pg_ctl are installed
import { execFileSync, spawnSync } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import net from "node:net";
import path from "node:path";

/** The newest installed PostgreSQL's bin dir (PG_BIN overrides), or null. */
export function pgBinDir() {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = "/usr/lib/postgresql";
  if (!existsSync(base)) return null;
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? path.join(base, versions[0], "bin") : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary, as `postgres` when we are root. */
function pg(bin, args, opts = {}) {
  const cmd = asRoot ? "runuser" : bin;
  const argv = asRoot ? ["-u", "postgres", "--", bin, ...args] : args;
  return execFileSync(cmd, argv, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", ...opts });
}

export async function startCluster(dir) {
  const bin = pgBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  mkdirSync(dir, { recursive: true });
  const uid = asRoot ? Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()) : null;
  if (uid !== null) chownSync(dir, uid, uid);
  const data = path.join(dir, "data");
  pg(path.join(bin, "initdb"), ["-D", data, "-A", "trust", "-U", "yard", "-E", "UTF8", "--locale=C", "--no-sync"]);
  // Several test servers and workers each hold a pool: room for them all. (As root we may write
  // the postgres-owned file.)
  appendFileSync(
    path.join(data, "postgresql.conf"),
    [
      "",
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      "fsync = off",
      "synchronous_commit = off",
      "full_page_writes = off",
      "max_connections = 400",
      "",
    ].join("\n"),
  );
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const r = spawnSync(
      asRoot ? "runuser" : path.join(bin, "pg_ctl"),
      [
        ...(asRoot ? ["-u", "postgres", "--", path.join(bin, "pg_ctl")] : []),
        "-D",
        data,
        "-o",
        `-p ${port}`,
        "-l",
        path.join(dir, "log"),
        "-w",
        "-t",
        "60",
        "start",
      ],
      { encoding: "utf8" },
    );
    if (r.status === 0) return `postgresql://yard@127.0.0.1:${port}/postgres`;
    if (attempt >= 2) throw new Error(`pg_ctl start failed: ${r.stderr || r.stdout}`);
  }
}

export function stopCluster(dir) {
  const bin = pgBinDir();
  const data = path.join(dir, "data");
  if (bin && existsSync(data)) {
    try {
      pg(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, dir] = process.argv.slice(2);
  if (cmd === "available") process.exit(pgBinDir() ? 0 : 1);
  if (!dir || !["start", "stop"].includes(cmd)) {
    console.error("usage: node scripts/pg-cluster.mjs start|stop DIR | available");
    process.exit(2);
  }
  if (cmd === "start") {
    try {
      console.log(await startCluster(path.resolve(dir)));
    } catch (e) {
      console.error(e.message);
      process.exit(1);
    }
  } else stopCluster(path.resolve(dir));
}
