// Reading a socket.io client event: its payload bounded and validated against the socket contract
// (server/wire/socket.ts) or refused as BAD_PARAMS, and the failed ack an error becomes.
import { YardError } from "../core/errors";
import { inputShapeError } from "../wire/common";
import { type SocketErrorShape, type SocketInput, type SocketInputName, socketInputs } from "../wire/socket";

/** The failed ack for an error: a YardError's code, message and details; anything else INTERNAL. */
export const errorReply = (e: unknown): { ok: false; error: SocketErrorShape } => ({
  ok: false,
  error:
    e instanceof YardError
      ? e.toJSON()
      : { code: "INTERNAL", message: (e as Error)?.message ?? String(e), details: null },
});

/** A client event's payload, bounded and validated, or a BAD_PARAMS YardError. */
export function parseSocketInput<N extends SocketInputName>(name: N, raw: unknown): SocketInput<N> {
  const problem = inputShapeError(raw);
  if (problem) throw new YardError("BAD_PARAMS", `${name}: input refused: ${problem}`);
  const r = socketInputs[name].safeParse(raw ?? undefined);
  if (!r.success) {
    const issues = r.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new YardError(
      "BAD_PARAMS",
      `${name}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ")}`,
      { issues },
    );
  }
  return r.data as SocketInput<N>;
}
