// Input contracts shared by every edge (tRPC procedures, socket.io events, core validation): the
// size limits every input obeys, the id and path schemas, and the structural guard that refuses
// oversized or deeply nested input before any schema or core code walks it.
import path from "node:path";
import { z } from "zod";

/** The one set of limits. Every string field also has its own, usually tighter, `.max()`. */
export const LIMITS = {
  /** Largest request body the HTTP server reads (bytes). */
  bodyBytes: 4 * 1024 * 1024,
  /** Longest string anywhere in any input (UTF-16 units). */
  string: 256 * 1024,
  /** Deepest nesting of objects and arrays in any input. */
  depth: 32,
  /** Most entries in one array or object. */
  entries: 10_000,
  /** Most values (objects, arrays and scalars) in one input. */
  nodes: 100_000,
  /** A task result's evidence, serialized (bytes of JSON). */
  evidenceBytes: 64 * 1024,
  /** A prompt submitted to an agent. */
  prompt: 256 * 1024,
  /** A result summary, review summary or comment. */
  summary: 64 * 1024,
  /** A filesystem path. */
  path: 4096,
  /** A git ref or branch name. */
  ref: 255,
  /**
   * An agent's own message in a hook (Claude Code's `last_assistant_message`, Codex's
   * `last-assistant-message`): longer ones are cut, with a marker, before anything stores them
   * (a task's evidence quotes it). Cut, not refused: the hook still moves the pane's lifecycle.
   */
  hookMessage: 16 * 1024,
  /**
   * An identifier or a name in a hook payload (agent_id, agent_type, tool_name,
   * notification_type, source, hook_event_name): longer ones are refused (BAD_PARAMS), as no
   * agent sends them and a cut one would be a different name.
   */
  hookName: 256,
  /** The longest string stored in a journal event's payload; longer ones are cut, with a marker. */
  eventString: 4 * 1024,
  /** The most entries of one array or object stored in a journal event's payload (the rest are counted, not kept). */
  eventEntries: 100,
  /** The deepest nesting stored in a journal event's payload. */
  eventDepth: 8,
  /** A journal event's payload, serialized (bytes of JSON): its largest fields are dropped (and named) until it fits. */
  eventPayloadBytes: 16 * 1024,
} as const;

/**
 * `s` cut to at most `max` characters (UTF-16 units) when it is longer, ending in a marker that
 * says how much was cut: `…[cut 195000 characters]`. Never splits a surrogate pair.
 */
export function cutText(s: string, max: number): string {
  if (s.length <= max) return s;
  const marker = (n: number) => `…[cut ${n} characters]`;
  let keep = Math.max(0, max - marker(s.length).length);
  if (keep > 0 && /[\ud800-\udbff]/.test(s[keep - 1]!)) keep--;
  return s.slice(0, keep) + marker(s.length - keep);
}

/**
 * Why `value` is too big or too deep to be an input, or null when it is within LIMITS. Iterative
 * (no recursion, so no stack overflow), and it stops at the first violation.
 */
export function inputShapeError(value: unknown): string | null {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  let nodes = 0;
  while (stack.length) {
    const { v, depth } = stack.pop()!;
    if (++nodes > LIMITS.nodes) return `input has more than ${LIMITS.nodes} values`;
    if (typeof v === "string") {
      if (v.length > LIMITS.string) return `a string is longer than ${LIMITS.string} characters`;
      continue;
    }
    if (v === null || typeof v !== "object") continue;
    if (depth >= LIMITS.depth) return `input is nested deeper than ${LIMITS.depth} levels`;
    const children = Array.isArray(v) ? v : Object.values(v as Record<string, unknown>);
    if (children.length > LIMITS.entries) return `an array or object has more than ${LIMITS.entries} entries`;
    if (!Array.isArray(v)) {
      for (const k of Object.keys(v as Record<string, unknown>))
        if (k.length > 1024) return "an object key is longer than 1024 characters";
    }
    for (const c of children) stack.push({ v: c, depth: depth + 1 });
  }
  return null;
}

/**
 * The deepest nesting of `[`/`{` in JSON text, scanning once and skipping strings; stops counting
 * past `max`. Lets the HTTP edge refuse a deeply nested body before JSON.parse recurses into it.
 */
export function jsonDepthExceeds(text: string, max: number = LIMITS.depth + 4): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

const noNul = (s: string) => !s.includes("\0");

/** A string with a cap and no NUL bytes. */
export const text = (max: number) => z.string().max(max).refine(noNul, "must not contain NUL bytes");

/** An absolute filesystem path (relative paths would resolve against the server's cwd). */
export const absolutePath = z
  .string()
  .trim()
  .min(1, "a path is required")
  .max(LIMITS.path)
  .refine(noNul, "paths must not contain NUL bytes")
  .refine((p) => path.isAbsolute(p), "must be an absolute path (the CLI resolves relative paths for you)");

/** An agent's command line: the program and its arguments (placeholders are expanded at spawn time). */
export const argvSchema = z
  .array(z.string().max(8192).refine(noNul, "argv entries must not contain NUL bytes"))
  .min(1, "argv needs at least the program to run")
  .max(256)
  .refine((a) => a.length === 0 || a[0]!.trim().length > 0, "argv[0] (the program) must not be empty");

export const paneId = z.string().regex(/^pane[a-z0-9]{4,40}$/, "not a pane id");
export const taskId = z.string().regex(/^tsk[a-z0-9]{4,40}$/, "not a task id");
/** Project and other generic ids. */
export const id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "ids are letters, digits, _ and -");
export const profileId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "profile ids are lowercase letters, digits and -, up to 40 characters");
export const contextId = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_.:-]+$/, "context ids are letters, digits and _ . : -");
/** An event type glob: `task.*`, `pane.lifecycle`. */
export const eventTypeGlob = z
  .string()
  .max(100)
  .regex(/^[A-Za-z0-9_.*-]+$/, "type is a glob of letters, digits, . and *");

/** Free-form JSON evidence, capped in size (depth and entries are capped by inputShapeError). */
export const evidence = z.record(z.string().max(1024), z.unknown()).refine((v) => {
  try {
    return Buffer.byteLength(JSON.stringify(v)) <= LIMITS.evidenceBytes;
  } catch {
    return false;
  }
}, `evidence must serialize to at most ${LIMITS.evidenceBytes} bytes of JSON`);

/**
 * `true` when A and B are the same type, else `false`: where a core type must lead (a reducer's
 * states), the schema is checked equal to it at compile time, `const ok: Same<A, B> = true`.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
