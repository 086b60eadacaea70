// What a Claude Code-shaped hook asks of the pane lifecycle (the reducer in lifecycle.ts applies
// it), and the bounded summaries of a hook that the journal and a failed turn keep.
//
// Hook mapping, by hook name:
//   SessionStart -> idle (but source "compact" -> no change: auto-compaction can happen
//     mid-turn and the agent keeps working afterwards)
//   UserPromptSubmit, PreToolUse, PostToolUse, PostToolUseFailure, SubagentStop -> working
//   PermissionRequest, Notification{permission_prompt|elicitation_dialog} -> blocked
//   other Notification (idle_prompt, ...) -> no change
//   Stop -> done; StopFailure -> done, recorded in `lastStop.failed`
//   SessionEnd, SubagentStart, PreCompact -> no change (journaled; exit follows SessionEnd)
//   unknown names -> no change, journal only
//   Any payload with agent_id (a subagent) never yields done: Stop/StopFailure with
//   agent_id -> no change. Subagent working/blocked signals apply like the main agent's.
//
import type { HookPayload } from "../hooks/payload";
import { isKnownHookEvent, isSubagentPayload } from "../hooks/payload";
import type { Lifecycle } from "./lifecycle";

/** What a hook asks of the lifecycle. `to: null` means no lifecycle change. */
export interface HookClassification {
  to: Lifecycle | null;
  known: boolean;
  subagent: boolean;
  /** why a known hook does not change the lifecycle */
  note?: string;
}

const WORKING_HOOKS: ReadonlySet<string> = new Set([
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStop",
]);

const BLOCKING_NOTIFICATIONS: ReadonlySet<string> = new Set(["permission_prompt", "elicitation_dialog"]);

export function classifyHook(name: string, payload: HookPayload): HookClassification {
  const known = isKnownHookEvent(name);
  const subagent = isSubagentPayload(payload);
  if (!known) return { to: null, known, subagent, note: "unknown hook event" };
  if (WORKING_HOOKS.has(name)) return { to: "working", known, subagent };
  switch (name) {
    case "SessionStart":
      if (payload.source === "compact") return { to: null, known, subagent, note: "SessionStart after compaction" };
      return { to: "idle", known, subagent };
    case "PermissionRequest":
      return { to: "blocked", known, subagent };
    case "Notification": {
      const t = payload.notification_type;
      if (typeof t === "string" && BLOCKING_NOTIFICATIONS.has(t)) return { to: "blocked", known, subagent };
      return { to: null, known, subagent, note: `notification ${String(t ?? "(no type)")}` };
    }
    case "Stop":
    case "StopFailure":
      if (subagent) return { to: null, known, subagent, note: "subagent stop never marks the pane done" };
      return { to: "done", known, subagent };
    default:
      // SessionEnd (process exit follows), SubagentStart, PreCompact
      return { to: null, known, subagent, note: "no lifecycle effect" };
  }
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

/** Small, bounded summary of a hook for the journal (never the whole payload). */
export function hookSummary(
  name: string,
  payload: HookPayload,
): { name: string; agentId?: string; toolName?: string; notificationType?: string } {
  const out: ReturnType<typeof hookSummary> = { name };
  const agentId = str(payload.agent_id);
  if (agentId !== undefined) out.agentId = agentId;
  const tool = str((payload as Record<string, unknown>).tool_name);
  if (tool !== undefined) out.toolName = tool.slice(0, 128);
  const nt = str(payload.notification_type);
  if (nt !== undefined) out.notificationType = nt.slice(0, 64);
  return out;
}

export function stopError(payload: HookPayload): string | undefined {
  const p = payload as Record<string, unknown>;
  const e = str(p.error) ?? str(p.error_type) ?? str(p.reason) ?? str(p.message);
  return e === undefined ? undefined : e.slice(0, 2000);
}
