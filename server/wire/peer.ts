// The inter-process contract: what one server process sharing a board asks another on the `/peer`
// socket.io namespace (server/realtime/peer-namespace.ts answers, server/peers/link.ts asks) about
// a pane the other runs. The terminal events are the browser's (wire/socket.ts); the reads, keys,
// prompts and kills the CLI sends through tRPC travel as `pane:read`, `pane:keys`, `pane:submit`
// and `pane:kill`,
// each with who asked (the journal's actor on the owner's side). Every payload is validated on the
// receiving side, replies included: a peer is trusted with its secret, not with its shapes.
import { z } from "zod";
import { paneId } from "./common";
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

export const peerInputs = {
  "pane:read": readInput.extend({ actor }),
  "pane:keys": sendKeysInput.extend({ actor }),
  "pane:submit": submitInput.extend({ actor }),
  "pane:kill": z.object({ id: paneId, actor }),
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
} as const;

export const peerPushes = {
  "pane:output": z.object({ paneId: z.string(), data: z.string() }),
  "pane:resync": z.object({ paneId: z.string(), snapshot, pane: paneInfo }),
  "pane:lifecycle": z.object({ pane: paneInfo }),
  "pane:exit": z.object({ pane: paneInfo }),
} as const;
