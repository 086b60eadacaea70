// The `yard` CLI bundle: scripts/build-cli.mjs builds cli/dist/yard.mjs, which runs on plain
// `node` (no tsx, no TypeScript); cli/bin/yard.js uses it while it is fresh, and the stamp check
// that decides "fresh" notices changed, missing and unknown inputs.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleIsFresh } from "../cli/bin/bundle.mjs";
import { ROOT } from "./helpers/server";

const BUNDLE = path.join(ROOT, "cli/dist/yard.mjs");
const STAMP = path.join(ROOT, "cli/dist/yard.stamp.json");
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** node <argv> with no loader: no --import/--loader flags and no NODE_OPTIONS. */
function node(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== "NODE_OPTIONS" && !k.startsWith("YARD_")) clean[k] = v;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      argv,
      { cwd: ROOT, env: { ...clean, ...env } as NodeJS.ProcessEnv, timeout: 60_000, encoding: "utf8" },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === "number"
            ? (err as { code: number }).code
            : 1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("yard CLI bundle", () => {
  let build: Run;
  beforeAll(async () => {
    build = await node([path.join(ROOT, "scripts/build-cli.mjs")]);
  }, 120_000);

  it("builds cli/dist/yard.mjs and its stamp, with no Prisma, node-pty, xterm or Next inside", () => {
    expect(build.stderr).toBe("");
    expect(build.code).toBe(0);
    expect(build.stdout).toMatch(/^yard CLI: built cli\/dist\/yard\.mjs/);
    expect(existsSync(BUNDLE)).toBe(true);
    const stamp = JSON.parse(readFileSync(STAMP, "utf8")) as { format: number; inputs: Record<string, number> };
    const inputs = Object.keys(stamp.inputs);
    expect(inputs).toContain("cli/main.ts");
    expect(inputs).toContain("package.json");
    expect(
      inputs.filter((p) =>
        /@prisma|node-pty|@xterm|better-sqlite3|[\\/]next[\\/]|socket\.io|server[\\/]db[\\/]/.test(p),
      ),
    ).toEqual([]);
    // the server's router is only a type to the CLI
    expect(inputs.filter((p) => p.startsWith("server/"))).toEqual(
      expect.arrayContaining(["server/config.ts", "server/core/errors.ts", "server/version.ts"]),
    );
    expect(inputs).not.toContain("server/api/router.ts");
    // tsx is never imported up front (only `yard serve` loads it, on demand)
    const code = readFileSync(BUNDLE, "utf8");
    expect(code).not.toMatch(/^import .* from ["']tsx/m);
  });

  it("runs --version and --help on plain node, without tsx", async () => {
    const version = await node([BUNDLE, "--version"]);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    const help = await node([BUNDLE, "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: yard [options] [command]");
    expect(help.stdout).toContain("status");
    // usage errors keep their contract from the bundle too
    const bad = await node([BUNDLE, "--json", "frobnicate"]);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stdout).error.code).toBe("BAD_PARAMS");
  });

  it("says SERVER_UNAVAILABLE for a server that is not there (the bundle's own HTTP transport)", async () => {
    const res = await node([BUNDLE, "--json", "status"], {
      YARD_URL: "http://127.0.0.1:9",
      YARD_TOKEN: "x".repeat(43),
    });
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout).error.code).toBe("SERVER_UNAVAILABLE");
  });

  it("is what cli/bin/yard.js runs while it is fresh", async () => {
    expect(bundleIsFresh()).toBe(true);
    const version = await node([path.join(ROOT, "cli/bin/yard.js"), "--version"]);
    expect(version).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
    expect(bundleIsFresh()).toBe(true); // nothing was rebuilt
  });

  it("still serves from the bundle: `yard serve` runs the server's own bundle", async () => {
    const res = await node([BUNDLE, "serve", "--host", "0.0.0.0"], {
      YARD_HOME: mkdtempSync(path.join(os.tmpdir(), "yard-serve-home-")),
    });
    expect(res.stderr).toContain("refusing to listen on non-loopback address 0.0.0.0");
    expect(res.code).toBe(2);
  }, 60_000);
});

describe("bundle freshness (the stamp check yard.js runs on every call)", () => {
  function fixture() {
    const root = mkdtempSync(path.join(os.tmpdir(), "yard-stamp-"));
    dirs.push(root);
    const a = path.join(root, "a.ts");
    const b = path.join(root, "b.ts");
    const bundle = path.join(root, "out.mjs");
    for (const f of [a, b, bundle]) writeFileSync(f, "x\n");
    const past = new Date(Date.now() - 60_000);
    utimesSync(a, past, past);
    utimesSync(b, past, past);
    const stampPath = path.join(root, "stamp.json");
    const writeStamp = (inputs: Record<string, number>) =>
      writeFileSync(stampPath, JSON.stringify({ format: 1, builtAt: 0, inputs }));
    return { root, a, b, bundle, stampPath, writeStamp };
  }
  const mtime = (p: string) => statSync(p).mtimeMs;

  it("is fresh only while every input has the mtime it was built from", () => {
    const f = fixture();
    f.writeStamp({ "a.ts": mtime(f.a), "b.ts": mtime(f.b) });
    expect(bundleIsFresh(f.stampPath, f.bundle, f.root)).toBe(true);

    const later = new Date(Date.now() - 30_000);
    utimesSync(f.b, later, later); // an edit
    expect(bundleIsFresh(f.stampPath, f.bundle, f.root)).toBe(false);
  });

  it("is stale when an input is gone, recorded as unknown, or the bundle or stamp is missing", () => {
    const f = fixture();
    f.writeStamp({ "a.ts": mtime(f.a), "gone.ts": 1 });
    expect(bundleIsFresh(f.stampPath, f.bundle, f.root)).toBe(false);
    f.writeStamp({ "a.ts": mtime(f.a), "b.ts": 0 });
    expect(bundleIsFresh(f.stampPath, f.bundle, f.root)).toBe(false);
    f.writeStamp({ "a.ts": mtime(f.a) });
    expect(bundleIsFresh(f.stampPath, path.join(f.root, "missing.mjs"), f.root)).toBe(false);
    expect(bundleIsFresh(path.join(f.root, "no-stamp.json"), f.bundle, f.root)).toBe(false);
    writeFileSync(f.stampPath, "{not json");
    expect(bundleIsFresh(f.stampPath, f.bundle, f.root)).toBe(false);
  });
});
