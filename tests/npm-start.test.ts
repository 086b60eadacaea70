// `npm start` as a user runs it: the real npm, the real server bundle. npm returns once the board
// serves, and leaves no npm process behind as the server's parent; `npm stop` stops it.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isAlive, ROOT, stopPaneHost } from "./helpers/server";

const homes: string[] = [];
afterAll(async () => {
  for (const home of homes) {
    await stopPaneHost(home);
    rmSync(home, { recursive: true, force: true });
  }
});

function npm(home: string, args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      "npm",
      args,
      {
        cwd: ROOT,
        env: { ...process.env, YARD_HOME: home, YARD_NO_UI: "1", YARD_URL: "", YARD_TOKEN: "" },
        timeout: 90_000,
      },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, out: stdout + stderr }),
    );
  });
}

/** The command lines of a process's ancestors, nearest first. */
function ancestors(pid: number): string[] {
  const out: string[] = [];
  for (let p = pid; p > 1; ) {
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${p}/status`, "utf8"))![1]);
    if (ppid <= 1) break;
    out.push(readFileSync(`/proc/${ppid}/cmdline`, "utf8").replace(/\0/g, " "));
    p = ppid;
  }
  return out;
}

const serverInfo = (home: string) =>
  JSON.parse(readFileSync(path.join(home, "server.json"), "utf8")) as { url: string; pid: number };

describe("npm start", () => {
  it("returns once the board serves, with no npm process left as its parent; a second start says it runs; npm stop stops it", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-npm-start-"));
    homes.push(home);
    const started = await npm(home, ["start", "--", "--port", "0"]);
    expect(started.code, started.out).toBe(0);
    expect(started.out).toMatch(/Switchyard is running at http:\/\/127\.0\.0\.1:\d+/);
    expect(started.out).toMatch(/Open this login link once in your browser: http:\/\/127\.0\.0\.1:\d+\/login\?token=/);
    expect(started.out).toContain("It runs in the background");
    expect(started.out).not.toContain("next.config"); // Next's config timing is not the user's business

    const { url, pid } = serverInfo(home);
    expect(isAlive(pid)).toBe(true);
    expect(ancestors(pid).filter((cmd) => /\bnpm\b|npm-cli/.test(cmd))).toEqual([]);
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(readFileSync(path.join(home, "logs/server.log"), "utf8")).toContain(`Switchyard is running at ${url}`);

    const again = await npm(home, ["start", "--", "--port", "0"]);
    expect(again.code, again.out).toBe(0);
    expect(again.out).toContain(`Switchyard is already running at ${url}  (pid ${pid}`);
    expect(serverInfo(home).pid).toBe(pid);

    const stopped = await npm(home, ["stop"]);
    expect(stopped.code, stopped.out).toBe(0);
    expect(stopped.out).toContain("Stopped the server");
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(path.join(home, "server.json"))).toBe(false);
  }, 120_000);

  it("fails with the server's error, and leaves nothing running, when the port is taken", async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), "yard-npm-start-"));
    homes.push(home);
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const r = await npm(home, ["start", "--", "--port", String(port)]);
      expect(r.code).not.toBe(0);
      expect(r.out).toContain(`Port ${port} is already in use`);
      expect(r.out).toMatch(/the server exited \(code \d+\) before it was ready; its log: .*logs\/server\.log/);
      expect(existsSync(path.join(home, "server.json"))).toBe(false);
    } finally {
      busy.close();
    }
  }, 120_000);
});
