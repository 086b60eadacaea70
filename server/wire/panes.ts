// The pane, hook and attention contract: zod schemas for the inputs and outputs of the
// `panes.*` and `hooks.*` procedures (the journal's `events.*` are in events.ts). The router
// declares them with .input() and .output(); the CLI and UI take their types from the router.
import { z } from "zod";
import { LIMITS, paneId } from "./common";

export const lifecycle = z.enum(["starting", "idle", "working", "blocked", "done", "exited", "unknown"]);

export const paneInfo = z.object({
  id: z.string(),
  label: z.string().nullable(),
  lifecycle,
  pid: z.number().int().nullable(),
  exitCode: z.number().int().nullable(),
  signal: z.number().int().nullable(),
  cwd: z.string(),
  argv: z.array(z.string()),
  agent: z.string().nullable(),
  parentPaneId: z.string().nullable(),
  rootPaneId: z.string().nullable(),
  relationship: z.enum(["fork", "subagent"]).nullable(),
  taskId: z.string().nullable(),
  cols: z.number().int(),
  rows: z.number().int(),
  doneSeen: z.boolean(),
  live: z.boolean(),
  createdAt: z.string(),
  exitedAt: z.string().nullable(),
  /** Runs under the OS sandbox. */
  sandboxed: z.boolean(),
  /** The runner it runs on (null: the board's own machine). */
  runner: z.string().nullable(),
  /** Why a blocked pane is blocked: a start-up dialog (trust, login, ...) or a prompt the agent raised. */
  blockedReason: z.enum(["startup_dialog", "prompt"]).nullable(),
  /** The start-up dialog the agent waits at: what kind, one line, its text, since when. */
  dialog: z.object({ kind: z.string(), title: z.string(), text: z.string(), since: z.string() }).nullable(),
  /** A passing remark, e.g. { kind: "retrying", text: "… attempt 2/10" }. */
  note: z.object({ kind: z.string(), text: z.string() }).nullable(),
});

export const paneList = z.array(paneInfo);

export const readInput = z.object({
  id: paneId,
  mode: z.enum(["screen", "tail", "delta"]).default("screen"),
  lines: z.number().int().min(1).max(10_000).optional(),
  cursor: z.number().int().min(0).optional(),
  reader: z.string().max(64).optional(),
});

export const readReply = z.object({
  text: z.string(),
  cursor: z.number().int(),
  start: z.number().int(),
  dropped: z.object({ from: z.number().int(), to: z.number().int() }).nullable(),
  lifecycle,
});

export const submitInput = z.object({
  id: paneId,
  text: z.string().max(LIMITS.prompt),
  enterDelayMs: z.number().int().min(0).max(10_000).optional(),
  stallMs: z.number().int().min(100).max(600_000).optional(),
});

export const submitReply = z.object({
  ok: z.literal(true),
  activitySeq: z.number().int(),
  bracketed: z.boolean(),
  lifecycle,
});

export const sendKeysInput = z.object({ id: paneId, text: z.string().max(64 * 1024), enter: z.boolean().optional() });
export const sendKeysReply = z.object({ bytes: z.number().int() });

export const resizeInput = z.object({
  id: paneId,
  cols: z.number().int().min(10).max(1000),
  rows: z.number().int().min(4).max(500),
});

export const attentionItem = z.object({
  paneId: z.string(),
  taskId: z.string().optional(),
  reason: z.enum([
    "startup_dialog",
    "blocked",
    "input_required",
    "result_unacknowledged",
    "crashed",
    "turn_failed",
    "done",
  ]),
  severity: z.number().int(),
  since: z.number().nullable(),
  /** One line saying what is wrong, when known: a start-up dialog's title, an API error. */
  message: z.string().optional(),
});
export const attentionReply = z.object({ items: z.array(attentionItem) });

export const hookPostInput = z.object({ paneId, event: z.string().max(64), payload: z.unknown() });
export const hookPostReply = z.object({ lifecycle, seq: z.number().int() });
