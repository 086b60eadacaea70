// holdExitUntilDrained over real node-pty processes: every byte written before exit arrives
// before node-pty reports the exit — with the event loop idle or busy, and with the PTY paused
// past node-pty's 200 ms post-exit socket timeout.
import * as pty from "node-pty";
import { describe, expect, it } from "vitest";
import { holdExitUntilDrained } from "./pty-drain";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };

function spawn(script: string) {
  const p = pty.spawn("/bin/sh", ["-c", script], { cols: 80, rows: 24, env: ENV, encoding: null });
  expect(holdExitUntilDrained(p)).toBe(true);
  const chunks: Buffer[] = [];
  p.onData((d) => void chunks.push(Buffer.from(d as unknown as Uint8Array)));
  const exit = new Promise<{ exitCode: number; at: number }>((resolve) =>
    p.onExit((e) => resolve({ exitCode: e.exitCode, at: Date.now() })),
  );
  return { p, exit, text: () => Buffer.concat(chunks).toString("latin1") };
}

const seqOutput = (n: number) => Array.from({ length: n }, (_, i) => `${i + 1}\r\n`).join("");

function busy(ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

describe("holdExitUntilDrained", () => {
  it("delivers all of `seq 1 10000` before exit, idle or with the event loop busy", async () => {
    const runs = [0, 1, 2, 3, 4, 5].map(() => spawn("seq 1 10000"));
    busy(400); // longer than node-pty's post-exit socket timeout
    const burst = setInterval(() => busy(30), 40);
    try {
      await Promise.all(runs.map((r) => r.exit));
    } finally {
      clearInterval(burst);
    }
    for (const r of runs) expect(r.text()).toBe(seqOutput(10_000));
  });

  it("delivers output of a process that exits while the PTY is paused past node-pty's timeout", async () => {
    const r = spawn("seq 1 100");
    r.p.pause();
    const resumed = new Promise<void>((resolve) =>
      setTimeout(() => {
        r.p.resume();
        resolve();
      }, 600),
    );
    await r.exit;
    await resumed;
    expect(r.text()).toBe(seqOutput(100));
  });
});
