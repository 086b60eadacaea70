// A pane host of another protocol (started by another version of Switchyard) on the data dir,
// and no server: `yard stop --all` still stops it. The host refuses the CLI's hello (CONFLICT),
// so the CLI sends it SIGTERM, which a host handles like a `shutdown`: its agents end, then it.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAlive, ROOT, yard } from "./helpers/server";

const dirs: string[] = [];
const hosts: ChildProcess[] = [];
afterAll(() => {
  for (const h of hosts) if (h.exitCode === null && h.signalCode === null) h.kill("SIGKILL");
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("yard stop --all with no server", () => {
  it("stops a pane host that speaks another protocol", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-old-host-"));
    dirs.push(home);
    const old = spawn(process.execPath, [path.join(ROOT, "tests/programs/old-panehost.mjs"), home], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    hosts.push(old);
    const exited = new Promise<number | null>((resolve) => old.once("exit", resolve));
    await new Promise((resolve) => old.stdout!.once("data", resolve));

    const r = await yard({ home }, ["--json", "stop", "--all"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ stopped: { server: false, host: true }, all: true, exited: true });
    expect(await exited).toBe(0);
    expect(existsSync(path.join(home, "host/sigterm"))).toBe(true);
    expect(isAlive(old.pid!)).toBe(false);
  });
});
