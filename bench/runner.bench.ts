// Runner benchmark: a terminal through a runner's pane host over SSH (its kit installed on a
// throwaway local sshd standing in for the other machine, reached through the OpenSSH forward the
// board uses: server/core/runners/remote-host.ts) against the local pane host, in one run:
//   - keystroke-to-echo: a key written to `cat` in a PTY until its echo arrives as output (median
//     of 60 keys, one after another)
//   - output throughput: 16 MB written by a program until its last byte arrived as output (median
//     of 3 runs)
// Targets: echo through the runner within 3× the local host's (plus the SSH hop's ~1 ms), and at
// least a third of its throughput. Needs root and Debian's openssh-server (tests/helpers/sshd.ts);
// without them it says so.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { HOST_BUNDLE } from "../tests/helpers/server";
import { buildKit, encodeKit } from "../server/core/runners/kit";
import { unpackCommand } from "../server/core/runners/kit-scripts";
import { RemoteHost } from "../server/core/runners/remote-host";
import { exec, type SshTarget, sshArgv } from "../server/core/runners/ssh";
import { PaneHostClient } from "../server/panehost/client";
import { SSHD_AVAILABLE, startSshd } from "../tests/helpers/sshd";
import { median } from "./stats";
import type { BenchResult } from "./types";

const KEYS = 60;
const BYTES = 16 * 1024 * 1024;
const RUNS = 3;

async function measure(host: PaneHostClient, cwd: string, tag: string): Promise<{ echoMs: number[]; mbps: number[] }> {
  let received = new Map<string, string>();
  let counted = new Map<string, number>();
  let wake: (() => void) | null = null;
  host.events = {
    output: (paneId, _offset, data) => {
      received.set(paneId, (received.get(paneId) ?? "") + data.toString("latin1").slice(-64));
      counted.set(paneId, (counted.get(paneId) ?? 0) + data.length);
      wake?.();
    },
    exit: async () => {
      wake?.();
    },
  };
  const until = async (ok: () => boolean) => {
    while (!ok()) await new Promise<void>((r) => (wake = r));
  };
  const base = { env: { PATH: "/usr/bin:/bin", TERM: "xterm-256color" }, cwd, cols: 120, rows: 32, scrollback: 1000 };

  // keystroke to echo
  const echoId = `panebench${tag}echo`;
  await host.request("spawn", { ...base, paneId: echoId, argv: ["cat"] });
  await host.request("attach", { paneId: echoId });
  const echoMs: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    const key = String.fromCharCode(97 + (i % 26));
    received.set(echoId, "");
    const t = performance.now();
    await host.request("write", { paneId: echoId, data: key });
    await until(() => (received.get(echoId) ?? "").includes(key));
    echoMs.push(performance.now() - t);
  }
  await host.request("kill", { paneId: echoId, graceMs: 200 });

  // output throughput
  const mbps: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const id = `panebench${tag}out${r}`;
    counted = new Map();
    received = new Map();
    const t = performance.now();
    await host.request("spawn", {
      ...base,
      paneId: id,
      argv: [process.execPath, "-e", `process.stdout.write(Buffer.alloc(${BYTES}, 120)); setTimeout(() => {}, 60000)`],
    });
    await host.request("attach", { paneId: id });
    await until(() => (counted.get(id) ?? 0) >= BYTES);
    mbps.push(BYTES / 1024 / 1024 / ((performance.now() - t) / 1000));
    await host.request("kill", { paneId: id, graceMs: 200 });
  }
  return { echoMs, mbps };
}

export async function run(): Promise<BenchResult[]> {
  if (!SSHD_AVAILABLE)
    return [
      {
        name: "runner over SSH: not measured (needs root and openssh-server)",
        value: 0,
        baseline: 0,
        ratio: 0,
        unit: "ms",
        target: "-",
        pass: true,
        info: true,
      },
    ];
  const sshd = await startSshd();
  const scratch = mkdtempSync(path.join(os.tmpdir(), "yard-bench-runner-"));
  let local: PaneHostClient | null = null;
  let remote: PaneHostClient | null = null;
  let access: RemoteHost | null = null;
  try {
    // This bench's own throwaway sshd: its key is read from the machine itself, not over the network.
    const knownHosts = path.join(scratch, "known_hosts");
    const pub = execFileSync("ssh-keyscan", ["-p", String(sshd.port), "127.0.0.1"], { encoding: "utf8" });
    writeFileSync(knownHosts, pub);
    const target: SshTarget = {
      user: sshd.user,
      host: "127.0.0.1",
      port: sshd.port,
      identityFile: sshd.identity,
      knownHostsFiles: [knownHosts],
    };
    const kit = buildKit();
    const unpacked = await exec("ssh", sshArgv(target, unpackCommand(kit.name)), {
      timeoutMs: 300_000,
      input: encodeKit(kit.files),
    });
    if (unpacked.code !== 0) throw new Error(`kit install failed: ${unpacked.stderr}`);

    local = await PaneHostClient.open({ home: path.join(scratch, "local"), log: () => {}, entry: HOST_BUNDLE });
    await local.ready();
    access = new RemoteHost({ target, kit: kit.name, dir: path.join(scratch, "forward"), where: "bench runner" });
    remote = await PaneHostClient.open({ home: path.join(scratch, "remote"), log: () => {}, access });
    await remote.ready();

    const here = await measure(local, scratch, "local");
    const there = await measure(remote, sshd.dataHome, "remote");
    const echoLocal = median(here.echoMs);
    const echoRemote = median(there.echoMs);
    const outLocal = median(here.mbps);
    const outRemote = median(there.mbps);
    const note = `ssh to a local sshd (loopback): the SSH channel's own cost, not a network's`;
    return [
      {
        name: "keystroke to echo through a runner over SSH (vs the local pane host)",
        value: echoRemote,
        baseline: echoLocal,
        ratio: echoRemote / echoLocal,
        unit: "ms",
        target: "≤ 3× + 1 ms",
        pass: echoRemote <= 3 * echoLocal + 1,
        note: `median of ${KEYS} keys; ${note}`,
      },
      {
        name: "output throughput through a runner over SSH (vs the local pane host)",
        value: outRemote,
        baseline: outLocal,
        ratio: outRemote / outLocal,
        unit: "MB/s",
        target: "≥ 0.33×",
        pass: outRemote >= outLocal / 3,
        note: `${BYTES / 1024 / 1024} MB, median of ${RUNS}; ${note}`,
      },
    ];
  } finally {
    await remote?.shutdown().catch(() => {});
    access?.close();
    await local?.shutdown().catch(() => {});
    await sshd.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(r);
}
