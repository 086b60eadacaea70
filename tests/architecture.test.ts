// The layering rules, checked on the source tree: core is framework-free, the UI reaches the server
// only through its wire contracts and the router's type, only stores (and the database module)
// touch Prisma, and no file points at documents outside this repository.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers/server";

function files(dir: string, exts = [".ts", ".tsx", ".mjs", ".js"]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(ROOT, dir))) {
    if (name === "node_modules" || name === "generated" || name === "dist" || name.startsWith(".")) continue;
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) out.push(...files(rel, exts));
    else if (exts.some((e) => name.endsWith(e))) out.push(rel);
  }
  return out;
}

/** Module specifiers a file imports (static, dynamic and type-only alike). */
function importsOf(file: string): string[] {
  return importsWithKind(file).map((i) => i.spec);
}

/** The same, each marked type-only (`import type`, `export type`: erased, never loaded) or not. */
function importsWithKind(file: string): Array<{ spec: string; typeOnly: boolean }> {
  const src = readFileSync(path.join(ROOT, file), "utf8");
  const out: Array<{ spec: string; typeOnly: boolean }> = [];
  for (const m of src.matchAll(/(?:^|\n)\s*(import|export)\s(type\s)?[^;]*?from\s+["']([^"']+)["']/g))
    out.push({ spec: m[3]!, typeOnly: m[2] !== undefined });
  for (const m of src.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) out.push({ spec: m[1]!, typeOnly: false });
  return out;
}

/** A specifier of a repository file as its path with the extension (`server/wire/glob.ts`), or null. */
function sourceOf(file: string, spec: string): string | null {
  if (!spec.startsWith(".") && !spec.startsWith("@/")) return null;
  const base = resolved(file, spec);
  for (const ext of ["", ".ts", ".tsx", "/index.ts"]) {
    try {
      if (statSync(path.join(ROOT, base + ext)).isFile()) return base + ext;
    } catch {}
  }
  return null;
}

/** A specifier as a repository path when it is one (relative, or the `@/` root alias), else as written. */
const resolved = (file: string, spec: string) =>
  spec.startsWith(".")
    ? path.normalize(path.join(path.dirname(file), spec))
    : spec.startsWith("@/")
      ? path.normalize(spec.slice(2))
      : spec;

const SOURCES = [
  ...files("server"),
  ...files("cli"),
  ...files("app"),
  ...files("components"),
  ...files("lib"),
  ...files("agents"),
  ...files("bench"),
  ...files("scripts"),
  ...files("e2e"),
];

describe("layering", () => {
  it("keeps core free of Next, React, tRPC, socket.io and the edges", () => {
    const bad: string[] = [];
    for (const f of files("server/core").filter((f) => !f.includes(".test."))) {
      for (const spec of importsOf(f)) {
        const r = resolved(f, spec);
        if (/^(next|react|react-dom|@trpc\/|socket\.io)/.test(spec) || /^server\/(api|realtime|http)/.test(r))
          bad.push(`${f} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("keeps the contracts free of the core (the core imports them, not the other way)", () => {
    const bad: string[] = [];
    for (const f of files("server/wire").filter((f) => !f.includes(".test."))) {
      for (const spec of importsOf(f))
        if (resolved(f, spec).startsWith("server/core")) bad.push(`${f} imports ${spec}`);
    }
    expect(bad).toEqual([]);
  });

  it("lets the UI import from the server only its wire contracts and the router's type", () => {
    // The router's type is how lib/types.ts infers every UI type; it is erased from the bundle.
    const ROUTER = "server/api/router";
    const ui = [...files("app"), ...files("components"), ...files("lib")].filter((f) => !f.includes(".test."));
    expect(ui.length).toBeGreaterThan(30);
    const bad: string[] = [];
    for (const f of ui) {
      for (const { spec, typeOnly } of importsWithKind(f)) {
        const r = resolved(f, spec);
        if (!r.startsWith("server/")) continue;
        if (r.startsWith("server/wire/") || (r === ROUTER && typeOnly)) continue;
        bad.push(`${f} imports ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("keeps the wire modules the browser loads free of Node and of anything but each other", () => {
    // A value the UI imports from server/wire is bundled for the browser with everything it loads.
    const ui = [...files("app"), ...files("components"), ...files("lib")].filter((f) => !f.includes(".test."));
    const loaded = new Set<string>();
    const queue: string[] = [];
    for (const f of ui)
      for (const { spec, typeOnly } of importsWithKind(f)) {
        const src = sourceOf(f, spec);
        if (!typeOnly && src?.startsWith("server/")) queue.push(src);
      }
    const bad: string[] = [];
    while (queue.length) {
      const f = queue.pop()!;
      if (loaded.has(f)) continue;
      loaded.add(f);
      for (const { spec, typeOnly } of importsWithKind(f)) {
        if (typeOnly) continue;
        const src = sourceOf(f, spec);
        if (src?.startsWith("server/wire/")) queue.push(src);
        else if (spec !== "zod") bad.push(`${f} (loaded by the browser) imports ${spec}`);
      }
    }
    expect([...loaded].sort()).toEqual(expect.arrayContaining(["server/wire/columns.ts", "server/wire/glob.ts"]));
    expect(bad).toEqual([]);
  });

  it("lets only the stores and the database module import Prisma", () => {
    // Modules whose queries are still being moved into stores; the list only shrinks.
    // server/composition.ts is the composition root: it opens the database and hands it to the stores.
    const NOT_YET_MOVED = new Set(["server/composition.ts"]);
    const bad: string[] = [];
    for (const f of SOURCES.filter(
      (f) =>
        !f.includes(".test.") &&
        !f.startsWith("server/stores/") &&
        !f.startsWith("server/db/") &&
        !f.startsWith("bench/") &&
        !f.startsWith("scripts/"),
    )) {
      const prisma = importsOf(f).some((spec) => {
        const r = resolved(f, spec);
        return /^@prisma\//.test(spec) || r === "server/db" || r.startsWith("server/db/");
      });
      if (prisma && !NOT_YET_MOVED.has(f)) bad.push(f);
    }
    expect(bad).toEqual([]);
  });

  it("keeps every module a reader can hold: no source file over 500 lines in server, cli, components, app, lib or agents", () => {
    const long = ["server", "cli", "components", "app", "lib", "agents"]
      .flatMap((d) => files(d))
      .filter((f) => !/\.test\.tsx?$/.test(f))
      .map((f) => [f, readFileSync(path.join(ROOT, f), "utf8").split("\n").length - 1] as const)
      .filter(([, lines]) => lines > 500);
    expect(long).toEqual([]);
  });

  it("has no comment or doc pointing at files outside the repository", () => {
    const docs = [
      ...SOURCES,
      ...files(".", [".md"]).filter((f) => !f.startsWith("node_modules")),
      ...files("docs", [".md"]),
    ];
    const outside = docs.filter((f) =>
      /DESIGN\.md|STACK-NOTES|\/work\/shared|\.\.\/shared\//.test(readFileSync(path.join(ROOT, f), "utf8")),
    );
    expect(outside).toEqual([]);
  });
});
