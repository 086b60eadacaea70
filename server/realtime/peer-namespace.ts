// The `/peer` socket.io namespace: where another server process sharing the board reaches the
// panes this one runs (the asking side is server/peers/). A peer's handshake carries this
// process's current secret (published in the shared database, server/peers/presence.ts) in a
// header, over WebSocket, without a browser's Origin; it is checked in constant time at the
// handshake, at the namespace connection and at every event, so a socket opened before a restart
// or shutdown ends with it. A peer socket gets only this namespace (the board's own namespace
// still wants a person's credentials) and only the terminal events plus the reads, keys, prompts
// and kills of wire/peer.ts (what a person at the pane does), and the task actions that need the
// agent's process (api/at-owner.ts), run as the caller the peer names, through the same gates.
import type http from "node:http";
import { TRPCError } from "@trpc/server";
import type { Server, Socket } from "socket.io";
import type { z } from "zod";
import { callFromPeer } from "../api/at-owner";
import { appRouter } from "../api/router";
import { YardError } from "../core/errors";
import type { Services } from "../composition";
import type { BoardPresence } from "../peers/presence";
import { asForwarded } from "../peers/router";
import type { Refusal } from "../security/guard";
import { inputShapeError } from "../wire/common";
import { PEER_NAMESPACE, PEER_SECRET_HEADER, type PeerInputName, peerInputs } from "../wire/peer";
import { errorReply } from "./socket-input";
import type { YardSocket } from "./socket";
import { wireTerminals } from "./terminals";

const headerOf = (req: http.IncomingMessage): string | undefined => {
  const h = req.headers[PEER_SECRET_HEADER];
  return typeof h === "string" ? h : undefined;
};

/**
 * A peer's handshake: admitted with this process's secret; refused (401) with a wrong or stale
 * one, and (403) from a browser (an Origin) or over anything but WebSocket. Null: no peer
 * credential at all (an ordinary request, admitted or not by the board's own rules).
 */
export function admitPeer(req: http.IncomingMessage, presence: BoardPresence): { ok: true } | Refusal | null {
  if (req.headers[PEER_SECRET_HEADER] === undefined) return null;
  if (req.headers.origin !== undefined || req.headers["sec-fetch-site"] !== undefined)
    return { status: 403, code: "FORBIDDEN", message: "A browser cannot connect as a board process" };
  let transport: string | null = null;
  try {
    transport = new URL(req.url ?? "/", "http://localhost").searchParams.get("transport");
  } catch {}
  if (transport !== "websocket")
    return { status: 400, code: "BAD_PARAMS", message: "Board processes connect over WebSocket only" };
  if (!presence.verify(headerOf(req)))
    return { status: 401, code: "UNAUTHORIZED", message: "Not this board process's secret" };
  return { ok: true };
}

type Ack = (reply: unknown) => void;

function parsePeerInput<N extends PeerInputName>(name: N, raw: unknown): z.output<(typeof peerInputs)[N]> {
  const problem = inputShapeError(raw);
  if (problem) throw new YardError("BAD_PARAMS", `${name}: input refused: ${problem}`);
  const r = peerInputs[name].safeParse(raw ?? undefined);
  if (!r.success) throw new YardError("BAD_PARAMS", `${name}: ${r.error.issues.map((i) => i.message).join("; ")}`);
  return r.data as z.output<(typeof peerInputs)[N]>;
}

export function wirePeerNamespace(io: Server, services: Services): void {
  const presence = services.peers.presence;
  const ns = io.of(PEER_NAMESPACE);
  ns.use((socket, next) => {
    const a = admitPeer(socket.request, presence);
    if (a && "ok" in a) return next();
    next(new Error(a?.code ?? "UNAUTHORIZED"));
  });
  ns.on("connection", (socket: Socket) => {
    // A secret replaced (this process restarted) or withdrawn (shutting down) ends the socket.
    socket.use((_packet, next) => {
      if (presence.verify(headerOf(socket.request))) return next();
      socket.disconnect(true);
      next(new Error("UNAUTHORIZED"));
    });
    // The browser's terminal protocol, served from this process's own panes (never passed on again).
    wireTerminals(socket as unknown as YardSocket, services, { proxy: false });
    const answer = (fn: () => Promise<unknown>) => (ack: unknown) => {
      const reply: Ack = typeof ack === "function" ? (ack as Ack) : () => {};
      fn().then(
        (r) => reply({ ok: true, reply: r }),
        (e: unknown) => reply(errorReply(e)),
      );
    };
    socket.on("pane:read", (raw: unknown, ack: unknown) =>
      answer(async () => {
        const { actor, ...input } = parsePeerInput("pane:read", raw);
        return asForwarded(actor, () => services.panes.read(input.id, input));
      })(ack),
    );
    socket.on("pane:keys", (raw: unknown, ack: unknown) =>
      answer(async () => {
        const { actor, ...input } = parsePeerInput("pane:keys", raw);
        return asForwarded(actor, () => services.panes.sendKeys(input.id, input.text, { enter: input.enter }));
      })(ack),
    );
    socket.on("pane:submit", (raw: unknown, ack: unknown) =>
      answer(async () => {
        const { actor, ...input } = parsePeerInput("pane:submit", raw);
        return asForwarded(actor, () => services.panes.submit(input.id, input.text, input));
      })(ack),
    );
    // A task action whose agent runs here: through this process's own router, as the caller.
    socket.on("task:call", (raw: unknown, ack: unknown) =>
      answer(async () => {
        const { path, input, caller, actor } = parsePeerInput("task:call", raw);
        const call = appRouter.createCaller(callFromPeer(services, caller));
        const [group, name] = path.split(".") as [string, string];
        const procedure = (call as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>)[group]![
          name
        ]!;
        try {
          return await asForwarded(actor, () => procedure(input));
        } catch (e) {
          throw e instanceof TRPCError && e.cause instanceof YardError ? e.cause : e;
        }
      })(ack),
    );
    socket.on("pane:kill", (raw: unknown, ack: unknown) =>
      answer(async () => {
        const { actor, id } = parsePeerInput("pane:kill", raw);
        return asForwarded(actor, () => services.panes.kill(id));
      })(ack),
    );
  });
}
