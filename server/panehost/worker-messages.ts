// Messages between the pane host's main thread and its mirror workers (mirror-worker.ts).
import type { WireError } from "./protocol";

export interface WorkerRead {
  mode: "screen" | "tail" | "delta";
  lines?: number;
  cursor?: number;
  reader?: string;
}

export type WorkerIn =
  | { t: "create"; id: string; cols: number; rows: number; scrollback: number }
  /** Output of the pane, in order (transferred). */
  | { t: "write"; id: string; data: ArrayBuffer[] }
  | { t: "resize"; id: string; cols: number; rows: number }
  | {
      t: "req";
      rid: number;
      id: string;
      op: "read" | "snapshot" | "modes" | "finalize" | "count";
      args: Record<string, unknown>;
    }
  | { t: "dispose"; id: string };

export type WorkerOut =
  /** Bytes parsed so far, per pane that parsed anything since the last report. */
  | { t: "parsed"; list: Array<[string, number]> }
  | { t: "fault"; id: string; message: string; name: string; count: number }
  | { t: "res"; rid: number; ok: true; result: unknown }
  | { t: "res"; rid: number; ok: false; error: WireError };
