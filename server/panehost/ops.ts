// The pane host's protocol as one contract: every request a client may send the host (its
// arguments as a zod schema the host validates each request against, its reply, who may send it)
// and every event the host sends the server (its payload). Both ends take their types from this
// map: the host's handler table (dispatcher.ts) must have exactly one handler per op, and the
// client's `request(op, args)` (connection.ts) is typed by it. PROTOCOL, the version the two sides
// compare at `hello`, is a hash of the whole map, so a change to any schema changes it and a
// server never talks to a host of another shape.
//
// Fields named by `body` (a request's), `replyBody` (its reply's) or an event's `body` travel as
// the frame's binary body, not in its JSON header (protocol.ts): written input, read text,
// snapshots and output. Only zod/mini and node:crypto: the CLI (for `yard stop --all`) and the
// pane host bundle this, tree-shaken, where zod's package entry would load all of zod.
import { createHash } from "node:crypto";
import * as z from "zod/mini";

const paneId = z.string().check(z.regex(/^pane[a-z0-9]{4,40}$/));
const count = z.int().check(z.minimum(0));
const positive = z.int().check(z.minimum(1));
const dict = z.record(z.string(), z.unknown());
const none = z.strictObject({});
/** Output bytes: a Buffer on both ends, never JSON. */
const bytes = z.custom<Buffer>((v) => v instanceof Uint8Array);

const serving = z.object({ url: z.string(), host: z.string(), port: z.int().check(z.minimum(0), z.maximum(65535)) });

/** One pane the host holds: running, or exited with its exit not yet acknowledged. */
const paneStatus = z.object({
  paneId: z.string(),
  pid: z.int(),
  cols: z.int(),
  rows: z.int(),
  state: z.enum(["running", "exiting", "exited"]),
  readBytes: count,
  /** What the server attached at spawn (hooks support). */
  meta: dict,
});

/** A pane's backpressure counters; `firstReadAt`, `lastParsedAt`: epoch ms (fractional). */
const flowStats = z.object({
  readBytes: count,
  parsedBytes: count,
  pendingBytes: count,
  maxPendingBytes: count,
  backpressurePauses: count,
  paused: z.boolean(),
  faults: count,
  firstReadAt: z.nullable(z.number()),
  lastParsedAt: z.nullable(z.number()),
});

/** What a record waiting for a server looks like in `status`. */
const queued = z.discriminatedUnion("kind", [
  z.object({ paneId: z.string(), kind: z.literal("hook"), event: z.string() }),
  z.object({ paneId: z.string(), kind: z.literal("exit"), exitCode: z.nullable(z.int()) }),
]);

/** An op as contractVersion reads it. */
interface OpShape {
  args: z.ZodMiniType;
  reply: z.ZodMiniType;
  body?: string;
  replyBody?: string;
  control?: true;
}
interface OpSpec<A extends z.ZodMiniType, R extends z.ZodMiniType> extends OpShape {
  args: A;
  reply: R;
  /** A string field of the arguments that is sent as the frame's body. */
  body?: keyof z.input<A> & string;
  /** A string field of the reply that is sent as the frame's body. */
  replyBody?: keyof z.output<R> & string;
  /** A control connection (the CLI) may send it too; every op is the server's. */
  control?: true;
}
const op = <A extends z.ZodMiniType, R extends z.ZodMiniType>(spec: OpSpec<A, R>) => spec;

export const OPS = {
  /** The first request on every connection: authenticates; the host's state in reply. */
  hello: op({
    args: z.strictObject({
      secret: z.string(),
      role: z.enum(["server", "control"]),
      pid: count,
      protocol: z.string(),
    }),
    reply: z.object({
      hostPid: z.int(),
      protocol: z.string(),
      startedAt: z.string(),
      /** Where the last server served (the address live panes' YARD_URL points at), or null. */
      serving: z.nullable(serving),
      panes: z.array(paneStatus),
    }),
    control: true,
  }),
  status: op({
    args: none,
    reply: z.object({
      hostPid: z.int(),
      startedAt: z.string(),
      serverPid: z.nullable(z.int()),
      running: count,
      mirrors: count,
      undelivered: count,
      hooksQueued: count,
      /** What waits for a server, oldest first. */
      queue: z.array(queued),
      serving: z.nullable(serving),
    }),
    control: true,
  }),
  list: op({ args: none, reply: z.object({ panes: z.array(paneStatus) }), control: true }),
  /** Where this server listens (live panes' YARD_URL). */
  serving: op({ args: z.strictObject(serving.shape), reply: none }),
  /** From now on exits and relayed hooks go to this server as they happen; first, every one it missed. */
  ready: op({ args: none, reply: z.object({ delivered: count }) }),
  /** The server has handled (and persisted) record `seq`: the host forgets it. */
  ack: op({ args: z.strictObject({ seq: positive }), reply: none }),
  /** Starts a process in a PTY (argv already wrapped by the sandbox when it applies). */
  spawn: op({
    args: z.strictObject({
      paneId,
      argv: z.array(z.string()).check(z.minLength(1)),
      env: z.record(z.string(), z.string()),
      /**
       * Start from the host's own environment (a runner's: its HOME, PATH, locale) with `env` over
       * it, and `pathPrefix` before its PATH; otherwise `env` is the whole environment.
       */
      inherit: z.optional(z.strictObject({ pathPrefix: z.string() })),
      cwd: z.string(),
      cols: positive,
      rows: positive,
      scrollback: positive,
      /** Activity ticks for the server's no-hooks heuristic. */
      activity: z._default(z.boolean(), false),
      /** The pane token's hash: the hook relay checks tokens against it. */
      tokenHash: z._default(z.string(), ""),
      meta: z._default(dict, {}),
      /** Pause the PTY while more than highBytes are read but not parsed, resume below lowBytes. */
      backpressure: z.optional(z.strictObject({ highBytes: z.optional(count), lowBytes: z.optional(count) })),
    }),
    reply: z.object({ pid: z.int() }),
  }),
  write: op({ args: z.strictObject({ paneId, data: z.string() }), reply: none, body: "data" }),
  /** In order with the output read so far (parsed at the old size first). */
  resize: op({
    args: z.strictObject({
      paneId,
      cols: z.int().check(z.minimum(2), z.maximum(10_000)),
      rows: z.int().check(z.minimum(1), z.maximum(10_000)),
    }),
    reply: none,
  }),
  /** SIGTERM to the process group, SIGKILL after graceMs. */
  kill: op({ args: z.strictObject({ paneId, graceMs: z._default(count, 2000) }), reply: none }),
  /** Screen, tail or delta of the live mirror, after every byte read before the request is parsed. */
  read: op({
    args: z.strictObject({
      paneId,
      mode: z.enum(["screen", "tail", "delta"]),
      lines: z.optional(positive),
      cursor: z.optional(count),
      reader: z.optional(z.string().check(z.maxLength(64))),
    }),
    reply: z.object({
      text: z.string(),
      cursor: z.int(),
      start: z.int(),
      dropped: z.nullable(z.object({ from: z.int(), to: z.int() })),
    }),
    replyBody: "text",
  }),
  snapshot: op({
    args: z.strictObject({ paneId }),
    reply: z.object({ data: z.string(), cols: z.int(), rows: z.int() }),
    replyBody: "data",
  }),
  /**
   * Snapshot and subscription at once: the snapshot holds exactly the bytes read before `offset`;
   * from then on the pane's output comes as `output` events. `tail`: bytes of a character the
   * last read cut, to prime the viewer's decoder.
   */
  attach: op({
    args: z.strictObject({ paneId }),
    reply: z.object({ data: z.string(), cols: z.int(), rows: z.int(), offset: count, tail: z.array(z.int()) }),
    replyBody: "data",
  }),
  detach: op({ args: z.strictObject({ paneId }), reply: none }),
  /** The program's terminal modes (the submit gate asks before pasting). */
  modes: op({ args: z.strictObject({ paneId }), reply: z.object({ bracketedPaste: z.boolean() }) }),
  configure: op({ args: z.strictObject({ paneId, activity: z.optional(z.boolean()) }), reply: none }),
  /** Flow counters; with `untilParsed`, once that many bytes are parsed (TIMEOUT after timeoutMs). */
  stats: op({
    args: z.strictObject({ paneId, untilParsed: z.optional(count), timeoutMs: z._default(count, 30_000) }),
    reply: flowStats,
    control: true,
  }),
  /** Stops the host (ending every pane unless stopPanes is false); answered first. */
  shutdown: op({
    args: z.strictObject({ stopPanes: z._default(z.boolean(), true), graceMs: z._default(count, 1000) }),
    reply: z.object({ stopping: count }),
    control: true,
  }),
  /** Detaches, leaving the host and its panes running. */
  bye: op({ args: none, reply: none }),
};

interface EventShape {
  payload: z.ZodMiniType;
  body?: string;
}
interface EventSpec<P extends z.ZodMiniType> extends EventShape {
  payload: P;
  /** A field of the payload that is sent as the frame's body. */
  body?: keyof z.output<P> & string;
}
const event = <P extends z.ZodMiniType>(spec: EventSpec<P>) => spec;

export const EVENTS = {
  /** Output of a pane the server attached to; `offset`: bytes of the pane read before `data`. */
  output: event({ payload: z.object({ paneId: z.string(), offset: count, data: bytes }), body: "data" }),
  /** A pane with activity ticks wrote output: at most one per 100 ms plus a trailing one; `at` = the latest. */
  activity: event({ payload: z.object({ paneId: z.string(), at: z.number() }) }),
  /** xterm threw while parsing and the mirror rebuilt itself. */
  fault: event({
    payload: z.object({ paneId: z.string(), message: z.string(), name: z.string(), count: count }),
  }),
  /** Output for this pane was dropped (the server fell behind): viewers need a fresh snapshot. */
  resync: event({ payload: z.object({ paneId: z.string() }) }),
  /** A hook `yard hook` left with the relay while no server was reachable; kept until acknowledged. */
  hook: event({
    payload: z.object({
      seq: positive,
      paneId: z.string(),
      token: z.string(),
      event: z.string(),
      payload: dict,
      at: z.number(),
    }),
  }),
  /** The process exited, its output was read to the end and its final screen saved (unless screenError); kept until acknowledged. */
  exit: event({
    payload: z.object({
      seq: positive,
      paneId: z.string(),
      exitCode: z.nullable(z.int()),
      signal: z.nullable(z.int()),
      at: z.number(),
      screenError: z.nullable(z.string()),
      stats: flowStats,
    }),
  }),
};

type Ops = typeof OPS;
export type OpName = keyof Ops;
/** What a client sends (fields with a default may be left out). */
export type OpArgs<Op extends OpName> = z.input<Ops[Op]["args"]>;
/** What the host's handler gets: the arguments as validated, defaults filled in. */
export type OpParams<Op extends OpName> = z.output<Ops[Op]["args"]>;
export type OpReply<Op extends OpName> = z.output<Ops[Op]["reply"]>;

export type EventName = keyof typeof EVENTS;
export type EventPayload<E extends EventName> = z.output<(typeof EVENTS)[E]["payload"]>;
/** An event frame as the server receives it. */
export type HostEvent = { [E in EventName]: { ev: E } & EventPayload<E> }[EventName];

export type HelloReply = OpReply<"hello">;
export type HostStatus = OpReply<"status">;
export type HostPaneStatus = z.output<typeof paneStatus>;
export type FlowStats = z.output<typeof flowStats>;
export type HostHook = EventPayload<"hook">;
export type HostExit = EventPayload<"exit">;

export const isOpName = (op: string): op is OpName => Object.hasOwn(OPS, op);
export const isHostEvent = (m: Record<string, unknown>): m is HostEvent =>
  typeof m.ev === "string" && Object.hasOwn(EVENTS, m.ev);

/**
 * The contract's version: a hash of every op's and event's name, schemas (as JSON Schema), body
 * fields and roles. Anything that changes what either side may send changes it. (One JSON Schema
 * of the whole map: converting schema by schema costs several times as long.)
 */
export function contractVersion(ops: Record<string, OpShape>, events: Record<string, EventShape>): string {
  const map = <T>(o: Record<string, T>, f: (v: T) => z.ZodMiniType) =>
    z.object(Object.fromEntries(Object.entries(o).map(([name, v]) => [name, f(v)])));
  const schemas = z.object({
    ops: map(ops, (o) => z.object({ args: o.args, reply: o.reply })),
    events: map(events, (e) => e.payload),
  });
  const fields = {
    ops: Object.entries(ops).map(([name, o]) => [name, o.control ?? false, o.body ?? null, o.replyBody ?? null]),
    events: Object.entries(events).map(([name, e]) => [name, e.body ?? null]),
  };
  const shape = JSON.stringify([fields, z.toJSONSchema(schemas, { unrepresentable: "any" })]);
  return createHash("sha256").update(shape).digest("hex").slice(0, 16);
}

export const PROTOCOL = contractVersion(OPS, EVENTS);
