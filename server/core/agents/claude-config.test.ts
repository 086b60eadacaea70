// The Claude trust writer: what it writes and keeps, where, and that concurrent writers (other
// Switchyard processes and a Claude-like writer rewriting the file all the while) never corrupt
// the file or lose an entry.
import { execFile, execFileSync } from "node:child_process";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { claudeConfigFile, isClaudeTrusted, recordClaudeTrust } from "./claude-config";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "yard-claude-cfg-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const USER_CONFIG = {
  numStartups: 12,
  customApiKeyResponses: { approved: ["abcdefghijklmnopqrst"], rejected: [] },
  hasCompletedOnboarding: true,
  projects: {
    "/home/me/existing": { allowedTools: ["Bash(ls)"], hasTrustDialogAccepted: false, lastCost: 1.5 },
    "/home/me/other": { hasTrustDialogAccepted: true },
  },
  oauthAccount: { emailAddress: "me@example.com" },
};

describe("claudeConfigFile", () => {
  it("is ~/.claude.json, or .claude.json under CLAUDE_CONFIG_DIR when that is set", () => {
    expect(claudeConfigFile({ HOME: "/home/me" })).toBe("/home/me/.claude.json");
    expect(claudeConfigFile({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "/srv/claude" })).toBe("/srv/claude/.claude.json");
    expect(claudeConfigFile({ HOME: "/home/me", CLAUDE_CONFIG_DIR: "  " })).toBe("/home/me/.claude.json");
  });
});

describe("recordClaudeTrust", () => {
  it("adds the entry and keeps every other key and field as it was", async () => {
    const file = path.join(tmp(), ".claude.json");
    writeFileSync(file, JSON.stringify(USER_CONFIG, null, 2), { mode: 0o600 });
    const r = await recordClaudeTrust(["/repo/a", "/home/me/existing"], { file });
    expect(r).toMatchObject({ file, added: ["/repo/a", "/home/me/existing"], written: true });
    const after = JSON.parse(readFileSync(file, "utf8"));
    expect(after).toEqual({
      ...USER_CONFIG,
      projects: {
        ...USER_CONFIG.projects,
        "/home/me/existing": { allowedTools: ["Bash(ls)"], hasTrustDialogAccepted: true, lastCost: 1.5 },
        "/repo/a": { hasTrustDialogAccepted: true },
      },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await isClaudeTrusted(["/repo/a"], { file })).toBe(true);
  });

  it("does not rewrite a file that already trusts the path", async () => {
    const file = path.join(tmp(), ".claude.json");
    const text = JSON.stringify(USER_CONFIG, null, 2);
    writeFileSync(file, text);
    expect(await recordClaudeTrust(["/home/me/other"], { file })).toMatchObject({ added: [], written: false });
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("creates the file (and its directory) when there is none", async () => {
    const file = path.join(tmp(), "cfgdir", ".claude.json");
    await recordClaudeTrust(["/repo/new"], { file });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      projects: { "/repo/new": { hasTrustDialogAccepted: true } },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("keeps the file's own mode", async () => {
    const file = path.join(tmp(), ".claude.json");
    writeFileSync(file, "{}");
    chmodSync(file, 0o640);
    await recordClaudeTrust(["/repo/m"], { file });
    expect(statSync(file).mode & 0o777).toBe(0o640);
  });

  // What a sandboxed agent can plant in its own home (the sandbox's), where the host rewrites the file.
  it("never writes through a symlinked config: the link and the file it points at stay as they were", async () => {
    const d = tmp();
    const host = path.join(d, "host-file.json");
    const hostText = JSON.stringify({ keep: 1 });
    writeFileSync(host, hostText);
    const link = path.join(d, ".claude.json");
    symlinkSync(host, link);
    await expect(recordClaudeTrust(["/repo/s"], { file: link })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("symbolic link"),
    });
    expect(readFileSync(host, "utf8")).toBe(hostText);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readdirOf(d)).toEqual([".claude.json", "host-file.json"]); // no temporary or lock file left
  });

  it("refuses a FIFO at once (never blocks reading it) and a device", async () => {
    const d = tmp();
    const fifo = path.join(d, ".claude.json");
    execFileSync("mkfifo", [fifo]);
    await expect(recordClaudeTrust(["/repo/f"], { file: fifo })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("not a regular file"),
    });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(await isClaudeTrusted(["/repo/f"], { file: fifo })).toBe(false);
    await expect(recordClaudeTrust(["/repo/f"], { file: "/dev/null" })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("refuses a config directory that is a link, and a file that leaves `within` through a linked parent", async () => {
    const d = tmp();
    const hostDir = path.join(d, "host-dir");
    mkdirSync(hostDir);
    symlinkSync(hostDir, path.join(d, "cfg"));
    await expect(recordClaudeTrust(["/repo/d"], { file: path.join(d, "cfg", ".claude.json") })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringContaining("directory"),
    });
    const home = path.join(d, "sandbox-home");
    mkdirSync(home);
    symlinkSync(hostDir, path.join(home, "conf"));
    await expect(
      recordClaudeTrust(["/repo/d"], { file: path.join(home, "conf", "x", ".claude.json"), within: home }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("leads out of") });
    expect(readdirSync(hostDir)).toEqual([]);
    // Inside, as a regular file: written as always.
    await recordClaudeTrust(["/repo/d"], { file: path.join(home, ".claude.json"), within: home });
    expect(JSON.parse(readFileSync(path.join(home, ".claude.json"), "utf8"))).toEqual({
      projects: { "/repo/d": { hasTrustDialogAccepted: true } },
    });
  });

  it("leaves a file that is not JSON untouched and says so", async () => {
    const file = path.join(tmp(), ".claude.json");
    writeFileSync(file, "{ half a file");
    await expect(recordClaudeTrust(["/repo/x"], { file })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(readFileSync(file, "utf8")).toBe("{ half a file");
    writeFileSync(file, "[1,2]");
    await expect(recordClaudeTrust(["/repo/x"], { file })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(readFileSync(file, "utf8")).toBe("[1,2]");
  }, 30_000);

  it("refuses relative paths", async () => {
    await expect(recordClaudeTrust(["repo"], { file: path.join(tmp(), ".claude.json") })).rejects.toMatchObject({
      code: "BAD_PARAMS",
    });
  });
});

describe("recordClaudeTrust with concurrent writers", () => {
  it("8 Switchyard writers and a Claude-like writer: every entry lands, the user's keys stay, the file is never unreadable", async () => {
    const d = tmp();
    const file = path.join(d, ".claude.json");
    writeFileSync(file, JSON.stringify(USER_CONFIG, null, 2), { mode: 0o600 });
    const startAt = String(Date.now() + 2500); // every writer has started its runtime by then
    const run = (argv: string[], env: Record<string, string> = {}) =>
      new Promise<string>((resolve, reject) =>
        execFile(
          process.execPath,
          argv,
          { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
          (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
        ),
      );
    const paths = Array.from({ length: 8 }, (_, i) => `/work/repo-${i}`);
    let reads = 0;
    let unreadable = 0;
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const text = readFileSync(file, "utf8");
        reads++;
        try {
          JSON.parse(text);
        } catch {
          unreadable++;
        }
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    // The Claude-like writer runs from before our writers start until they have all ended.
    const stopFile = path.join(tmp(), "stop");
    const claudeLikeRun = run([path.join(ROOT, "tests/programs/claude-like-writer.mjs"), file], {
      DURATION_MS: "30000",
      STOP_FILE: stopFile,
    });
    const ours = await Promise.all(
      paths.map((p) =>
        run(["--import", "tsx", path.join(ROOT, "tests/programs/claude-trust-writer.ts"), file, p], {
          START_AT: startAt,
        }),
      ),
    );
    writeFileSync(stopFile, "");
    const claudeLike = await claudeLikeRun;
    polling = false;
    await poll;

    const after = JSON.parse(readFileSync(file, "utf8"));
    for (const p of paths) expect(after.projects[p], p).toEqual({ hasTrustDialogAccepted: true });
    expect(after.projects["/home/me/existing"]).toEqual(USER_CONFIG.projects["/home/me/existing"]);
    expect(after.customApiKeyResponses).toEqual(USER_CONFIG.customApiKeyResponses);
    expect(after.oauthAccount).toEqual(USER_CONFIG.oauthAccount);
    expect(after.numStartups).toBeGreaterThan(USER_CONFIG.numStartups); // the other writer kept writing throughout
    expect(Number(claudeLike)).toBeGreaterThan(0);
    expect(ours.map((o) => JSON.parse(o).written)).toEqual(paths.map(() => true));
    expect(reads).toBeGreaterThan(0);
    expect(unreadable).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // No temporary files left behind.
    expect(readdirOf(d)).toEqual([".claude.json"]);
  }, 60_000);
});

function readdirOf(d: string): string[] {
  return readdirSync(d).sort();
}
