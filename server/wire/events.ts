// The journal's contract: every event type the server appends, each with the zod schema of its
// payload, the event as readers get it (a union discriminated by `type`), and the `events.*` /
// `tasks.events` procedures' inputs and outputs.
//
// Two schemas per type:
//   - `write`: what EventJournal.append takes (strict: a missing, mistyped or unknown field is a
//     bug in the code that appends, refused at compile time by the types and at run time by the
//     journal, server/core/events/journal.ts);
//   - `read`: what a stored payload is. Every field is optional there: before it is stored a
//     payload is bounded (server/core/events/bound.ts), which may drop its largest fields (named
//     in `_omitted`) and cuts long strings and arrays (`_cut`), and a field that did not match
//     its schema (a production journal keeps the event; see journal.ts) is dropped and named in
//     `_invalid`. Fields the schema does not name are kept (a row written by another version
//     keeps what it says); rows are read the same way whoever wrote them (storedPayload).
import { z } from "zod";
import { mergeStrategy } from "./branches";
import { eventTypeGlob, paneId, taskId } from "./common";
import { startWhen } from "./orchestration";
import { lifecycle } from "./panes";
import { effectiveConfig, teardownResult } from "./repo-config";
import { reviewVerdict } from "./reviews";
import { finishCleanup, taskResult, taskState } from "./tasks";
import { turnKind } from "./turns";

// ---- helpers ---------------------------------------------------------------------------------

type Shape = Record<string, z.ZodType>;

/** What bounding and validation say about a stored payload (see the top of this file). */
const notes = {
  /** Fields cut (path → original length in characters or entries). */
  _cut: z.record(z.string(), z.number()).optional(),
  /** Fields dropped to fit the byte cap. */
  _omitted: z.array(z.string()).optional(),
  /** Fields dropped because they did not match the schema (field → why, with the value cut). */
  _invalid: z.record(z.string(), z.string()).optional(),
};

/** One payload shape: strict for writing, every field optional (plus the notes) for reading. */
function payload<S extends Shape>(shape: S) {
  return {
    write: z.strictObject(shape),
    read: z.looseObject({ ...z.object(shape).partial().shape, ...notes }),
  };
}

/** Two payload shapes under one type (a key in both has one schema): either for writing, all their fields for reading. */
function either<A extends Shape, B extends Shape>(a: A, b: B) {
  return {
    write: z.union([z.strictObject(a), z.strictObject(b)]),
    read: z.looseObject({ ...z.object(a).partial().shape, ...z.object(b).partial().shape, ...notes }),
  };
}

const int = z.number().int();
const record = z.record(z.string(), z.unknown());
const agentKind = z.enum(["claude", "codex"]);
const errorFields = { code: z.string(), message: z.string() };

// ---- the events ------------------------------------------------------------------------------

export const eventPayloads = {
  // tasks: creation and start
  "task.created": either(
    {
      title: z.string(),
      contextId: z.string().nullable(),
      backlog: z.literal(true),
      dependsOn: z.array(z.string()),
      /** A subtask of an approved plan. */
      parentTaskId: z.string().optional(),
    },
    {
      title: z.string(),
      contextId: z.string().nullable(),
      branch: z.string(),
      baseSha: z.string(),
      sandboxed: z.boolean(),
      /** The runner it runs on (absent: this machine). */
      runner: z.string().optional(),
    },
  ),
  "task.started": payload({ branch: z.string(), baseSha: z.string(), fromBacklog: z.literal(true) }),
  "task.prepare_failed": payload(errorFields),
  /** A runner task's work could not be brought back (the runner out of reach): the board keeps what came before. */
  "task.runner_sync_failed": payload({ runner: z.string(), ...errorFields }),
  /** A runner task's work came back changed (its branch or its uncommitted files): the board's copy was updated. */
  "task.runner_synced": payload({ runner: z.string(), commit: z.string() }),
  /** The agent's own config was prepared for the launch (trust, hooks). */
  "task.agent_config": payload({
    kind: agentKind.nullable(),
    claude: z.object({ file: z.string(), added: z.array(z.string()), written: z.boolean(), attempts: int }).nullable(),
    codex: z
      .object({
        codexHome: z.string(),
        trustedHooks: z.array(z.string()),
        trustedProject: z.string().nullable(),
        skipped: z.boolean(),
      })
      .nullable(),
  }),
  "task.session": payload({ sessionId: z.string(), transcriptPath: z.string().nullable() }),
  "task.transcript_refused": payload({ sessionId: z.string(), transcriptPath: z.string(), reason: z.string() }),

  // tasks: state, results, rounds
  "task.state": payload({
    from: taskState,
    to: taskState,
    /** The reducer event that moved it (server/core/tasks/state.ts). */
    cause: z.string(),
    round: int,
    evidence: record.nullable(),
  }),
  "task.result": payload({ round: int, ...taskResult.shape }),
  "task.round": payload({ round: int, freshPane: z.boolean() }),
  "task.follow_up": payload({ round: int, bytes: int, text: z.string() }),
  "task.resumed": payload({ round: int, sessionId: z.string(), agent: z.string() }),

  // tasks: finish
  "task.finished": payload({
    disposition: z.enum(["merged", "discarded"]),
    mergeCommit: z.string().nullable().optional(),
    target: z.string().optional(),
    /** What removing the worktree did; a discard lists at most 20 of the uncommitted files it removed. */
    cleanup: finishCleanup.partial({ ok: true }).optional(),
    uncommittedCount: int.optional(),
    /** Found merged at start-up (an interrupted merge had landed). */
    recovered: z.literal(true).optional(),
    /** Who finished it: "user" or the pane's id (absent: recovered at start-up, or written before this was recorded). */
    by: z.string().optional(),
    /** Merged on GitHub: the pull request that merged it (by is then "github"). */
    pullRequest: z.object({ number: int, url: z.string() }).optional(),
    /** How the merge landed (absent: a merge commit, or written before strategies). */
    strategy: mergeStrategy.optional(),
  }),
  /** A snapshot of the worktree was recorded (a turn ended, a revert, or the edits before one): core/tasks/turns.ts. */
  "task.turn": payload({
    number: int,
    round: int,
    kind: turnKind,
    revertOf: int.nullable(),
    commit: z.string(),
    files: int,
    additions: int,
    deletions: int,
  }),
  /** The worktree's files went back to the snapshot before `turn` (`restores`: that snapshot, 0 = the base). */
  "task.turn_reverted": payload({
    turn: int,
    restores: int,
    files: int,
    /** The first of the files that changed. */
    paths: z.array(z.string()),
    /** The snapshot recorded after it. */
    snapshot: int.nullable(),
    /** Who reverted: "user" or the pane's id. */
    by: z.string(),
  }),
  /** How far the task's branch is behind its target changed (counted off the request path, core/tasks/behind.ts). */
  "task.behind": payload({ target: z.string(), behind: int, targetCommit: z.string() }),
  /** An update of the branch with its target (core/tasks/update-branch.ts): what it did, or how it ended. */
  "task.branch_update": payload({
    outcome: z.enum(["updated", "up_to_date", "conflict_round", "resolved", "abandoned", "failed"]),
    mode: z.enum(["merge", "rebase"]),
    target: z.string(),
    targetCommit: z.string().optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    base: z.string().optional(),
    commits: int.optional(),
    files: z.array(z.string()).optional(),
    /** The round that resolves the conflicts (conflict_round). */
    round: int.optional(),
    comments: z.object({ moved: int, outdated: int }).nullable().optional(),
    /** A conflicted operation nobody was left to finish was aborted (abandoned). */
    aborted: z.literal(true).optional(),
    code: z.string().optional(),
    message: z.string().optional(),
  }),
  /** The task's diff size was counted (off the request path) and changed: boards refetch. */
  "task.diff_stat": payload({ files: int, additions: int, deletions: int }),
  /** The repository config the task started with (.switchyard.json at its base, the project's override), its ports, and what copy/link put into the worktree. */
  "task.setup": payload({
    config: effectiveConfig,
    ports: z.array(int),
    copied: z.array(z.string()),
    linked: z.array(z.string()),
    skipped: z.array(z.object({ path: z.string(), reason: z.string() })),
    files: int,
    bytes: int,
  }),
  /** What the recorded teardown did at the finish (never blocks it). */
  "task.teardown": payload(teardownResult.shape),
  /** The task's ports went back to the pool (released) or it took a block again (a resume). */
  "task.ports": payload({ ports: z.array(int), released: z.boolean() }),
  "task.cleanup": payload(finishCleanup.omit({ ok: true, uncommittedFiles: true }).shape),
  "task.merge_failed": payload({ ...errorFields, details: record.nullable() }),
  "task.merge_recovered": payload({
    outcome: z.enum(["completed", "aborted", "failed"]),
    tip: z.string().optional(),
    message: z.string().optional(),
  }),

  // tasks: hand-off to GitHub (server/core/github/)
  "task.pushed": payload({
    remote: z.string(),
    remoteBranch: z.string(),
    commit: z.string(),
    status: z.enum(["new", "updated", "forced", "up_to_date"]),
  }),
  "task.pull_request": payload({
    /** opened, or adopted (GitHub had one for the branch); then what a poll saw change. */
    action: z.enum(["opened", "adopted", "merged", "closed", "reopened", "draft", "ready", "head_moved", "checks"]),
    number: int,
    url: z.string(),
    state: z.enum(["open", "closed", "merged"]),
    draft: z.boolean(),
    checks: z.object({ state: z.string(), total: int, passed: int, failed: int, pending: int }).nullable().optional(),
    /** Merged while the task is not completed: it finishes once it is. */
    waitingFor: z.string().optional(),
  }),

  // tasks: orchestration
  "task.question": payload({ messageId: z.string(), round: int, text: z.string() }),
  "task.answer": payload({ messageId: z.string(), replyTo: z.string().nullable(), round: int, text: z.string() }),
  "task.acknowledged": payload({ round: int, by: z.string() }),
  "task.dependencies": either(
    { added: z.array(z.string()), autoStartWhen: startWhen.nullable() },
    { removed: z.array(z.string()) },
  ),
  "task.auto_started": payload({ dependencies: z.array(z.string()), when: startWhen }),
  "task.auto_start_failed": payload(errorFields),
  "task.worktree_registered": payload({ path: z.string(), branch: z.string().nullable() }),
  "task.plan": payload({
    planId: z.string(),
    version: int,
    state: z.enum(["in_review", "changes_requested", "decomposed"]),
    /** in_review: how many subtasks it proposes; decomposed: the subtasks it became, by key. */
    subtasks: z.union([int, z.record(z.string(), z.string())]).optional(),
    /** Who submitted or reviewed it (`user` or a pane id). */
    by: z.string().optional(),
    /** The review came from the plan reviewer agent. */
    byAgent: z.boolean().optional(),
    recovered: z.literal(true).optional(),
  }),

  // tasks: reviews
  "task.comment": payload({
    action: z.enum(["added", "edited", "resolved", "reopened", "deleted"]),
    commentId: z.string(),
    round: int,
    path: z.string(),
    startLine: int,
    endLine: int,
  }),
  "task.review": payload({
    reviewId: z.string(),
    round: int,
    verdict: reviewVerdict,
    comments: int,
    /** Changes requested: the round that started with the feedback. */
    nextRound: int.optional(),
  }),
  /** The agent reviewer stage: its state, and what brought it there. */
  "task.agent_review": payload({
    state: z.enum(["running", "approved", "changes_requested", "skipped", "capped", "failed"]),
    reviewer: z.string().optional(),
    round: int.optional(),
    sandboxed: z.boolean().optional(),
    /** skipped: who skipped it. */
    by: z.string().optional(),
    /** failed: why (reviewer_not_started, reviewer_exited, prompt_refused, …), with the error. */
    reason: z.string().optional(),
    code: z.string().optional(),
    message: z.string().optional(),
    lifecycle: z.string().optional(),
    dialog: z.object({ kind: z.string(), title: z.string(), text: z.string() }).nullable().optional(),
    screen: z.string().nullable().optional(),
    /** capped: the changes already requested, and the cap. */
    requested: int.optional(),
    cap: int.optional(),
    /** A plan's review (else the round's code). */
    plan: z.literal(true).optional(),
    version: int.optional(),
    reviewId: z.string().optional(),
  }),

  // panes
  "pane.spawned": payload({
    argv: z.array(z.string()),
    cwd: z.string(),
    label: z.string().nullable(),
    parentPaneId: z.string().nullable(),
    agent: z.string().nullable(),
    /** The agent CLI its profile's template runs (older events only have the argv). */
    kind: agentKind.nullable(),
    sandboxed: z.boolean(),
    /** Sandboxed: whether it keeps the host's network. */
    network: z.boolean().optional(),
    /** The runner it runs on (absent: this machine). */
    runner: z.string().optional(),
  }),
  "pane.lifecycle": payload({
    from: lifecycle,
    to: lifecycle,
    seq: int,
    /** hook:<Event>, heuristic:…, screen:…, spawned, exit. */
    cause: z.string(),
    exitCode: int.nullable(),
    /** A turn that ended (to done): the agent's last message, cut. */
    lastMessage: z.string().nullable().optional(),
    /** The process was lost with the pane host, not ended. */
    lost: z.string().optional(),
  }),
  "pane.hook": either(
    {
      name: z.string(),
      agentId: z.string().optional(),
      toolName: z.string().optional(),
      notificationType: z.string().optional(),
      outcome: z.enum(["transition", "activity", "noop", "unknown", "ignored"]),
      reason: z.string().optional(),
      to: lifecycle.optional(),
      /** Delivered by the pane host's relay while no server ran. */
      relayed: z.literal(true).optional(),
    },
    /** A hook for a pane that is not running, or relayed with a bad token: recorded, not applied. */
    { event: z.string(), ignored: z.string() },
  ),
  "pane.seen": payload({ lifecycle: lifecycle.optional(), seq: int.optional() }),
  "pane.ignored": payload({ event: z.string(), reason: z.string().optional(), lifecycle: lifecycle.optional() }),
  "pane.dialog": payload({ kind: z.string(), title: z.string() }),
  "pane.note": either({ kind: z.string(), text: z.string() }, { cleared: z.string().nullable() }),
  "pane.submitted": payload({ bytes: int, activitySeq: int }),
  /** The program could not be started. */
  "pane.exit": payload({ exitCode: int, error: z.string() }),
  "pane.lost": payload({ lastLifecycle: z.string(), reason: z.string() }),
  "pane.reattached": payload({ pid: int, lifecycle, hostState: z.enum(["running", "exiting", "exited"]) }),
  "pane.fault": payload({ message: z.string(), error: z.string().nullable(), count: int, covers: int }),
  "pane.screen_unsaved": payload({ error: z.string() }),

  // worktrees and disk (server/core/worktrees/)
  /** The worktrees' total size crossed the disk budget, moved by more than 1%, or the budget changed: boards refetch. */
  "worktrees.usage": payload({ totalBytes: int, budgetBytes: int.nullable(), overBudget: z.boolean() }),
  /** A clean-up removed worktrees (paths) and branches; `by` is "user". */
  "worktrees.gc": payload({
    removed: z.array(z.string()),
    branchesDeleted: z.array(z.string()),
    kept: int,
    freedBytes: int,
    by: z.string(),
  }),

  // the journal itself
  /** Retention removed events through `through` (all but `kept` of them). */
  "journal.pruned": payload({
    through: int,
    deleted: int,
    kept: int,
    maxDays: z.number().nullable(),
    maxEvents: int.nullable(),
  }),
  /** A stored row this server cannot read as an event (an unknown type, a payload that is not JSON). */
  "journal.unreadable": payload({ type: z.string(), problem: z.string(), raw: z.string() }),
};

export type EventType = keyof typeof eventPayloads;
export const EVENT_TYPES = Object.keys(eventPayloads) as EventType[];
/** What append takes for an event of type T. */
export type EventPayload<T extends EventType> = z.input<(typeof eventPayloads)[T]["write"]>;
/** What a reader gets for an event of type T (see the top of this file). */
export type StoredPayload<T extends EventType> = z.output<(typeof eventPayloads)[T]["read"]>;

export const isEventType = (type: string): type is EventType => Object.hasOwn(eventPayloads, type);

// ---- the event -------------------------------------------------------------------------------

type EventSchemaOf<T extends EventType> = z.ZodObject<{
  seq: z.ZodNumber;
  type: z.ZodLiteral<T>;
  taskId: z.ZodNullable<z.ZodString>;
  paneId: z.ZodNullable<z.ZodString>;
  actor: z.ZodOptional<z.ZodNullable<z.ZodString>>;
  payload: (typeof eventPayloads)[T]["read"];
  time: z.ZodString;
}>;
type EventSchema = { [T in EventType]: EventSchemaOf<T> }[EventType];

const eventOf = <T extends EventType>(type: T): EventSchemaOf<T> =>
  z.object({
    seq: int,
    type: z.literal(type),
    taskId: z.string().nullable(),
    paneId: z.string().nullable(),
    /** The person whose call appended it (the audit trail); null or absent: no person (a pane, the server itself). */
    actor: z.string().nullable().optional(),
    payload: eventPayloads[type].read,
    time: z.string(),
  });

/** A journal event as readers get it: discriminated by `type`. */
const yardEvent = z.discriminatedUnion(
  "type",
  EVENT_TYPES.map((t) => eventOf(t)) as unknown as [EventSchema, ...EventSchema[]],
);
export type YardEvent = z.output<typeof yardEvent>;
export type EventOf<T extends EventType> = Extract<YardEvent, { type: T }>;

// ---- checking payloads -----------------------------------------------------------------------

/** Why `payload` is not what append takes for `type` ("field: message" each), or [] when it is. */
export function payloadProblems(type: EventType, payload: unknown): string[] {
  const r = eventPayloads[type].write.safeParse(payload);
  return r.success ? [] : problemsOf(r.error.issues);
}

/**
 * A payload as readers get it: parsed with the type's read schema; a field that does not match
 * (or, with `strictAgainstWrite`, is unknown or missing-but-required for writing) is dropped
 * and named in `_invalid` with why and its value, cut. Never throws.
 */
export function storedPayload<T extends EventType>(
  type: T,
  raw: unknown,
  opts: { strictAgainstWrite?: boolean } = {},
): StoredPayload<T> {
  const { read, write } = eventPayloads[type];
  if (!opts.strictAgainstWrite) {
    const fast = read.safeParse(raw); // the common case: a row as this server wrote it
    if (fast.success) return fast.data as StoredPayload<T>;
  }
  const isObject = raw !== null && typeof raw === "object" && !Array.isArray(raw);
  const rest: Record<string, unknown> = isObject ? { ...(raw as Record<string, unknown>) } : {};
  const invalid: Record<string, string> = {};
  if (!isObject) invalid["(payload)"] = `not an object: ${preview(raw)}`;
  const drop = (issues: readonly z.core.$ZodIssue[]): void => {
    for (const i of issues) {
      // Not either shape: go by the one it came closest to.
      if (i.code === "invalid_union" && !i.path.length && i.errors.length) {
        drop(i.errors.reduce((a, b) => (b.length < a.length ? b : a)));
        continue;
      }
      const keys = i.code === "unrecognized_keys" ? i.keys : i.path.length ? [String(i.path[0])] : [];
      for (const k of keys) {
        if (!(k in rest) || k === "_invalid") continue;
        invalid[k] = `${i.message}: ${preview(rest[k])}`.slice(0, 300);
        delete rest[k];
      }
    }
  };
  if (opts.strictAgainstWrite) {
    const w = write.safeParse(rest);
    if (!w.success) drop(w.error.issues);
  }
  let r = read.safeParse(rest);
  if (!r.success) {
    drop(r.error.issues);
    r = read.safeParse(rest);
  }
  const out = (r.success ? r.data : {}) as StoredPayload<T> & { _invalid?: Record<string, string> };
  if (Object.keys(invalid).length) out._invalid = { ...out._invalid, ...invalid };
  return out;
}

function problemsOf(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((i) => {
    const where = i.path.join(".");
    const what = i.code === "unrecognized_keys" ? `unknown field(s) ${i.keys.join(", ")}` : i.message;
    return where ? `${where}: ${what}` : what;
  });
}

function preview(v: unknown): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

// ---- procedures ------------------------------------------------------------------------------

export const eventsListInput = z
  .object({
    since: z.number().int().min(0).optional(),
    type: eventTypeGlob.optional(),
    taskId: taskId.optional(),
    paneId: paneId.optional(),
    limit: z.number().int().min(1).max(10_000).optional(),
  })
  .optional();
export const eventsReply = z.object({ events: z.array(yardEvent), head: z.number().int() });
export const taskEventsOutput = z.object({ events: z.array(yardEvent) });
