// Validation of incoming agent hook posts (what `yard hook <Event>` sends the server).
// Owns: the envelope schema {event, payload}, the size limit, the list of known Claude Code
// hook events, and the HookPayload type the pane lifecycle reducer consumes.
// Lenient on purpose: unknown event names and extra payload fields pass (agents add
// fields over time); the reducer journals what it does not understand.
// Strict where it matters: the payload must be a JSON object, the known fields must have
// the right types, and the whole post must fit in MAX_HOOK_POST_BYTES.
// Bounded before anything stores it: names and ids longer than LIMITS.hookName are refused
// (no agent sends them, and a cut id would name something else), paths longer than LIMITS.path
// likewise; the agent's own message (last_assistant_message) is cut to LIMITS.hookMessage with
// a marker, since it is prose and the hook must still move the pane's lifecycle.

import { z } from "zod";
import { cutText, LIMITS } from "../../wire/common";
import { YardError } from "../errors";

/** Serialized (UTF-8 JSON) size limit for one hook post, envelope included. */
export const MAX_HOOK_POST_BYTES = 256 * 1024;

/** Claude Code hook events Switchyard understands. */
export const KNOWN_HOOK_EVENTS = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Notification",
  "Stop",
  "StopFailure",
  "SubagentStart",
  "SubagentStop",
  "PreCompact",
  "SessionEnd",
] as const;

export type KnownHookEvent = (typeof KNOWN_HOOK_EVENTS)[number];

const KNOWN_SET: ReadonlySet<string> = new Set(KNOWN_HOOK_EVENTS);

export function isKnownHookEvent(name: string): name is KnownHookEvent {
  return KNOWN_SET.has(name);
}

const HOOK_EVENT_NAME_RE = /^[A-Za-z]{1,64}$/;

/**
 * A hook payload as the agent sent it. The fields Switchyard reads are typed (and
 * type-checked when present); everything else passes through untouched.
 * `session_id` is optional so agents other than Claude Code (e.g. a Codex notify adapter)
 * can post too.
 */
const name = z.string().max(LIMITS.hookName);
const HookPayloadSchema = z.looseObject({
  session_id: z.string().max(512).optional(),
  transcript_path: z.string().max(LIMITS.path).optional(),
  cwd: z.string().max(LIMITS.path).optional(),
  hook_event_name: name.optional(),
  agent_id: name.optional(),
  agent_type: name.optional(),
  tool_name: name.optional(),
  notification_type: name.optional(),
  last_assistant_message: z
    .string()
    .transform((s) => cutText(s, LIMITS.hookMessage))
    .optional(),
  source: name.optional(),
});

export type HookPayload = z.infer<typeof HookPayloadSchema>;

/**
 * True when the payload comes from a subagent (carries agent_id, even an empty one: when in
 * doubt, treat it as a subagent so it can never mark the pane done).
 */
export function isSubagentPayload(payload: { agent_id?: unknown } | null | undefined): boolean {
  return payload != null && payload.agent_id !== undefined && payload.agent_id !== null;
}

const HookPostSchema = z.object({
  event: z.string().regex(HOOK_EVENT_NAME_RE, "event must be 1-64 ASCII letters (a hook event name such as Stop)"),
  payload: HookPayloadSchema,
});

export interface ParsedHookPost {
  event: string;
  payload: HookPayload;
  /** event is one of KNOWN_HOOK_EVENTS */
  known: boolean;
  /** the payload carries agent_id: it comes from a subagent, never the pane's main agent */
  subagent: boolean;
}

function byteLength(s: string): number {
  return Buffer.byteLength(s, "utf8");
}

function tooLarge(bytes: number): YardError {
  return new YardError("BAD_PARAMS", `payload too large: ${bytes} bytes (max ${MAX_HOOK_POST_BYTES})`, {
    field: "payload",
    bytes,
    maxBytes: MAX_HOOK_POST_BYTES,
  });
}

function describeIssues(error: z.ZodError): { message: string; issues: Array<{ path: string; message: string }> } {
  const issues = error.issues.map((i) => ({
    path: i.path.length ? i.path.map(String).join(".") : "(root)",
    message: i.message,
  }));
  const message = `invalid hook post: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`;
  return { message, issues };
}

/**
 * Validate one hook post. `raw` is either the decoded JSON body ({event, payload}) or the
 * raw body text (then the size is checked before parsing).
 * Throws YardError BAD_PARAMS ("payload too large", malformed JSON, schema errors, or an
 * event name that contradicts payload.hook_event_name).
 */
export function parseHookPost(raw: unknown): ParsedHookPost {
  let value: unknown = raw;
  if (typeof raw === "string") {
    const bytes = byteLength(raw);
    if (bytes > MAX_HOOK_POST_BYTES) throw tooLarge(bytes);
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new YardError("BAD_PARAMS", `malformed hook post: not valid JSON (${(e as Error).message})`);
    }
  } else {
    let text: string | undefined;
    try {
      text = JSON.stringify(raw);
    } catch (e) {
      throw new YardError("BAD_PARAMS", `malformed hook post: not JSON-serializable (${(e as Error).message})`);
    }
    if (text === undefined) throw new YardError("BAD_PARAMS", "malformed hook post: expected a JSON object");
    const bytes = byteLength(text);
    if (bytes > MAX_HOOK_POST_BYTES) throw tooLarge(bytes);
  }

  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new YardError("BAD_PARAMS", "malformed hook post: expected a JSON object {event, payload}");
  }

  const parsed = HookPostSchema.safeParse(value);
  if (!parsed.success) {
    const { message, issues } = describeIssues(parsed.error);
    throw new YardError("BAD_PARAMS", message, { issues });
  }
  const { event, payload } = parsed.data;
  if (payload.hook_event_name !== undefined && payload.hook_event_name !== event) {
    throw new YardError(
      "BAD_PARAMS",
      `hook event mismatch: posted as ${event} but payload.hook_event_name is ${JSON.stringify(payload.hook_event_name)}`,
      { event, hook_event_name: payload.hook_event_name },
    );
  }
  return {
    event,
    payload,
    known: isKnownHookEvent(event),
    subagent: isSubagentPayload(payload),
  };
}
