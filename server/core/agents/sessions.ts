// Agent sessions: the layer every hook post passes through before the pane lifecycle sees it.
// - Records the agent's own session on the task (Claude Code's `session_id` and
//   `transcript_path`, the same fields in Codex's Claude-shaped hooks), from the main agent's
//   hooks (never a subagent's), so a task can be resumed in the same conversation later.
// - Maps Codex's `notify` JSON (`yard hook CodexNotify <json>`) to a Stop for the pane's own
//   session; other threads (Codex's title request) and other notification types pass through
//   as an unknown hook, journaled and otherwise ignored.
// - Reads token usage from a transcript (Claude's JSONL or Codex's rollout file), cached by the
//   file's size and mtime.
import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import type { TaskStore } from "../../stores/tasks";
import type { EventJournal } from "../events/journal";
import { isSubagentPayload } from "../hooks/payload";
import type { PaneManager } from "../panes/manager";
import { CODEX_NOTIFY_EVENT, codexNotifyAsHook, codexTokenUsage, type TokenUsage } from "./codex";

export type { TokenUsage } from "./codex";

export class AgentSessions {
  /** the main agent's session id per live pane (Codex notify needs it to tell threads apart) */
  private readonly byPane = new Map<string, string>();
  /** what was last recorded per pane, so most hooks cost no database read */
  private readonly recorded = new Map<string, string>();

  constructor(private readonly deps: { tasks: Pick<TaskStore, "agentSession" | "recordAgentSession">; journal: EventJournal; panes: Pick<PaneManager, "hook" | "get"> }) {}

  /** A hook post for `paneId` (already authorized for it): record, translate, then the pane lifecycle. */
  async post(paneId: string, raw: { event: string; payload: unknown }): Promise<Awaited<ReturnType<PaneManager["hook"]>>> {
    let post = raw;
    const payload = isRecord(raw.payload) ? raw.payload : null;
    if (raw.event === CODEX_NOTIFY_EVENT && payload) {
      const mapped = codexNotifyAsHook(payload, this.byPane.get(paneId) ?? null);
      if (mapped) post = mapped;
    } else if (payload && typeof payload.session_id === "string" && !isSubagentPayload(payload)) {
      await this.record(paneId, payload.session_id, typeof payload.transcript_path === "string" ? payload.transcript_path : null).catch(() => {});
    }
    return this.deps.panes.hook(paneId, post);
  }

  private async record(paneId: string, sessionId: string, transcriptPath: string | null) {
    const key = `${sessionId}\0${transcriptPath ?? ""}`;
    if (this.recorded.get(paneId) === key) return;
    this.recorded.set(paneId, key);
    const known = this.byPane.get(paneId);
    this.byPane.set(paneId, sessionId);
    const info = await this.deps.panes.get(paneId);
    if (!info.taskId) return;
    const task = await this.deps.tasks.agentSession(info.taskId);
    if (!task || task.paneId !== paneId) return; // an old round's pane
    if (task.agentSessionId === sessionId && (task.agentTranscriptPath === transcriptPath || !transcriptPath)) return;
    await this.deps.tasks.recordAgentSession(info.taskId, sessionId, transcriptPath ?? null);
    if (known !== sessionId) await this.deps.journal.append("task.session", { taskId: info.taskId, paneId, payload: { sessionId, transcriptPath } });
  }

  forget(paneId: string) {
    this.byPane.delete(paneId);
    this.recorded.delete(paneId);
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// ---- token usage ---------------------------------------------------------------------------

/** Claude Code's transcript: usage of each assistant message, counted once per message id. */
export function claudeTokenUsage(jsonl: string): TokenUsage | null {
  const byMessage = new Map<string, Record<string, number>>();
  let anonymous = 0;
  for (const line of jsonl.split("\n")) {
    if (!line.includes('"usage"')) continue;
    try {
      const d = JSON.parse(line) as { type?: string; message?: { id?: string; usage?: Record<string, number>; model?: string } };
      if (d.type !== "assistant" || !d.message?.usage || d.message.model === "<synthetic>") continue;
      byMessage.set(d.message.id ?? `anon-${anonymous++}`, d.message.usage);
    } catch {
      /* a line being written */
    }
  }
  if (byMessage.size === 0) return null;
  const sum = (k: string) => [...byMessage.values()].reduce((a, u) => a + (typeof u[k] === "number" ? u[k]! : 0), 0);
  const input = sum("input_tokens");
  const output = sum("output_tokens");
  const cacheRead = sum("cache_read_input_tokens");
  const cacheWrite = sum("cache_creation_input_tokens");
  return { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

const usageCache = new Map<string, { size: number; mtimeMs: number; usage: TokenUsage | null }>();

/** Token usage of the session whose transcript is at `file` (Claude Code or Codex), or null. */
export async function transcriptTokenUsage(file: string | null): Promise<TokenUsage | null> {
  if (!file) return null;
  let st;
  try {
    st = statSync(file);
  } catch {
    return null;
  }
  const hit = usageCache.get(file);
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit.usage;
  const text = await readFile(file, "utf8").catch(() => "");
  const usage = text.includes('"token_count"') ? codexTokenUsage(text) : claudeTokenUsage(text);
  if (usageCache.size > 500) usageCache.clear();
  usageCache.set(file, { size: st.size, mtimeMs: st.mtimeMs, usage });
  return usage;
}
