// The inter-process contract: what one server process sharing a board asks another on the `/peer`
// socket.io namespace (server/realtime/peer-namespace.ts answers, server/peers/link.ts asks) about
// a pane the other runs. The terminal events are the browser's (wire/socket.ts); the reads, keys,
// prompts and kills the CLI sends through tRPC travel as `pane:read`, `pane:keys`, `pane:submit`
// and `pane:kill`, and the task actions that need the process running the agent (api/at-owner.ts)
// as `task:call`: the procedure's path and input with the caller, which the owner runs through its
// own router (its gates included). Each carries who asked (the journal's actor on the owner's side). Every payload is validated on the
// receiving side, replies included: a peer is trusted with its secret, not with its shapes.
import { z } from "zod";
import { paneId } from "./common";
import { profileRole } from "./projects";
import { paneInfo, readInput, readReply, sendKeysInput, sendKeysReply, submitInput, submitReply } from "./panes";

/** The namespace peers connect to, and the header their handshake carries the owner's secret in. */
export const PEER_NAMESPACE = "/peer";
export const PEER_SECRET_HEADER = "x-yard-peer-secret";

const actor = z
  .union([
    z.object({ kind: z.literal("person"), name: z.string().max(256) }),
    z.object({ kind: z.literal("pane"), paneId: z.string().max(64) }),
  ])
  .nullable()
  .default(null);

/** The procedures passed to the process running the task's agent (api/at-owner.ts), by their path in the router. */
const AT_OWNER = [
  "tasks.followUp",
  "tasks.cancel",
  "tasks.finish",
  "tasks.answer",
  "tasks.update",
  "tasks.revertTurn",
  "reviews.submit",
] as const;
export type AtOwnerPath = (typeof AT_OWNER)[number];

/** A caller as the owner rebuilds it: a person, or a pane (its role and sandbox, as its own process saw them). */
const caller = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("person"),
    person: z.object({
      id: z.string().max(64),
      name: z.string().max(256),
      role: z.enum(["member", "reviewer", "admin"]),
    }),
  }),
  z.object({
    kind: z.literal("pane"),
    pane: z.object({
      id: paneId,
      taskId: z.string().max(64).nullable(),
      role: profileRole,
      sandbox: z.object({ network: z.boolean() }).nullable().optional(),
    }),
  }),
]);

export const peerInputs = {
  "pane:read": readInput.extend({ actor }),
  "pane:keys": sendKeysInput.extend({ actor }),
  "pane:submit": submitInput.extend({ actor }),
  "pane:kill": z.object({ id: paneId, actor }),
  // The input is the procedure's own: the owner's router validates it.
  "task:call": z.object({ path: z.enum(AT_OWNER), input: z.unknown(), caller, actor }),
} as const;

export type PeerInputName = keyof typeof peerInputs;
export type PeerInput<N extends PeerInputName> = z.input<(typeof peerInputs)[N]>;

const snapshot = z.object({ data: z.string(), cols: z.number().int(), rows: z.number().int() });
const failed = z.object({
  ok: z.literal(false),
  error: z.object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).nullable() }),
});
const ok = <T extends z.ZodRawShape>(shape: T) => z.union([z.object({ ok: z.literal(true), ...shape }), failed]);

/** The acks a peer answers with, and the events it pushes to a viewer. */
export const peerReplies = {
  "pane:attach": ok({ snapshot, pane: paneInfo }),
  "pane:input": ok({}),
  "pane:resize": ok({ pane: paneInfo }),
  "pane:read": ok({ reply: readReply }),
  "pane:keys": ok({ reply: sendKeysReply }),
  "pane:submit": ok({ reply: submitReply }),
  "pane:kill": ok({ reply: paneInfo }),
  // The procedure's output: the asking side's procedure validates it.
  "task:call": ok({ reply: z.unknown() }),
} as const;

export const peerPushes = {
  "pane:output": z.object({ paneId: z.string(), data: z.string() }),
  "pane:resync": z.object({ paneId: z.string(), snapshot, pane: paneInfo }),
  "pane:lifecycle": z.object({ pane: paneInfo }),
  "pane:exit": z.object({ pane: paneInfo }),
} as const;
