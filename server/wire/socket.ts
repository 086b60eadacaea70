// The socket.io contract: zod schemas for every client → server event's payload (validated with
// the same limits as tRPC inputs, server/realtime/socket-input.ts) and the typed event maps
// shared by the server and the browser.
import { z } from "zod";
import { eventTypeGlob, paneId, taskId } from "./common";
import type { YardEvent } from "./events";
import type { paneInfo } from "./panes";

type PaneInfo = z.infer<typeof paneInfo>;

export const socketInputs = {
  "pane:attach": z.object({ paneId }),
  "pane:input": z.object({
    paneId,
    data: z
      .string()
      .min(1)
      .max(64 * 1024),
  }),
  "pane:resize": z.object({ paneId, cols: z.number().int().min(10).max(1000), rows: z.number().int().min(4).max(500) }),
  "pane:detach": z.object({ paneId }),
  "events:subscribe": z
    .object({
      since: z.number().int().min(0).optional(),
      type: eventTypeGlob.optional(),
      taskId: taskId.optional(),
      paneId: paneId.optional(),
    })
    .default({}),
} as const;

export type SocketInputName = keyof typeof socketInputs;
export type SocketInput<N extends SocketInputName> = z.output<(typeof socketInputs)[N]>;

export interface SocketErrorShape {
  code: string;
  message: string;
  details: Record<string, unknown> | null;
}

export type Ack<T> = ({ ok: true } & T) | { ok: false; error: SocketErrorShape };

export interface PaneSnapshot {
  data: string;
  cols: number;
  rows: number;
}

/** Events the browser sends (each with an ack callback where the protocol has one). */
export interface ClientToServerEvents {
  "pane:attach": (
    msg: SocketInput<"pane:attach">,
    ack: (reply: Ack<{ snapshot: PaneSnapshot; pane: PaneInfo }>) => void,
  ) => void;
  "pane:input": (msg: SocketInput<"pane:input">, ack?: (reply: Ack<object>) => void) => void;
  "pane:resize": (msg: SocketInput<"pane:resize">, ack?: (reply: Ack<{ pane: PaneInfo }>) => void) => void;
  "pane:detach": (msg: SocketInput<"pane:detach">) => void;
  /** The ack's `head`: every matching event after that seq reaches the socket (see realtime/socket.ts). */
  "events:subscribe": (
    msg: z.input<(typeof socketInputs)["events:subscribe"]>,
    ack?: (reply: Ack<{ head: number }>) => void,
  ) => void;
}

/** Events the server pushes. */
export interface ServerToClientEvents {
  "pane:output": (msg: { paneId: string; data: string }) => void;
  "pane:resync": (msg: { paneId: string; snapshot: PaneSnapshot; pane: PaneInfo }) => void;
  "pane:lifecycle": (msg: { pane: PaneInfo }) => void;
  "pane:exit": (msg: { pane: PaneInfo }) => void;
  event: (e: YardEvent) => void;
}
