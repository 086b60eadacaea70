// The diff view's model: one entry per changed file (the server's file list joined with the
// parsed patch, in the server's order), the language Prism highlights a path in, the size limits
// that keep large diffs usable, and each file section's anchor id.
import { type FileData, parseDiff } from "react-diff-view";
import { refractor } from "refractor";
import type { DiffFileInfo } from "../../lib/types";

/** A file with more changed lines starts collapsed ("Load diff"). */
export const BIG_FILE_LINES = 400;
/** A file with more changed lines is shown without syntax highlighting. */
export const HIGHLIGHT_MAX_LINES = 1500;
/** Up to this many changed lines, changed words within a line are marked too. */
export const MARK_EDITS_MAX_LINES = 500;

const LANG: Record<string, string> = {
  ts: "typescript",
  tsx: "tsx",
  js: "javascript",
  jsx: "jsx",
  mjs: "javascript",
  cjs: "javascript",
  json: "json",
  md: "markdown",
  css: "css",
  scss: "scss",
  html: "markup",
  xml: "markup",
  svg: "markup",
  py: "python",
  rb: "ruby",
  go: "go",
  rs: "rust",
  java: "java",
  kt: "kotlin",
  c: "c",
  h: "c",
  cc: "cpp",
  cpp: "cpp",
  hpp: "cpp",
  cs: "csharp",
  php: "php",
  sh: "bash",
  bash: "bash",
  yml: "yaml",
  yaml: "yaml",
  sql: "sql",
  swift: "swift",
  lua: "lua",
  diff: "diff",
  ini: "ini",
  toml: "ini",
};

export function langOf(path: string): string | null {
  const ext = path.split(".").pop()?.toLowerCase() ?? "";
  const l = LANG[ext];
  return l && refractor.registered(l) ? l : null;
}

export interface FileEntry {
  key: string;
  path: string;
  oldPath?: string;
  status: "added" | "modified" | "deleted" | "renamed";
  additions: number;
  deletions: number;
  binary: boolean;
  parsed: FileData | null;
}

/** Server file list + parsed patch → one entry per file, in the server's order. */
export function buildEntries(diff: string, files: DiffFileInfo[]): FileEntry[] {
  const parsed = diff.trim() ? parseDiff(diff, { nearbySequences: "zip" }) : [];
  const byPath = new Map<string, FileData>();
  for (const p of parsed) byPath.set(p.type === "delete" ? p.oldPath : p.newPath, p);
  return files.map((f) => ({
    key: f.path,
    path: f.path,
    oldPath: f.oldPath,
    status: f.status,
    additions: f.additions,
    deletions: f.deletions,
    binary: f.binary,
    parsed: byPath.get(f.path) ?? null,
  }));
}

/** The id of a file's section, for the file tree's jumps. */
export const fileAnchor = (key: string) => `diff-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
