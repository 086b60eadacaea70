// Ports for tasks: the range they come from (YARD_PORT_RANGE, "first-last", default 41000-41999),
// picking a task's block (the lowest ports of the range that no other task holds and nothing on
// the machine listens on; not necessarily adjacent), and whether something listens on
// 127.0.0.1:<port> (the task page's Preview links). Holding and releasing are the task side's
// (core/tasks/setup.ts): this module keeps no state.
import net from "node:net";
import { YardError } from "../errors";

export interface PortRange {
  first: number;
  last: number;
}

export const DEFAULT_PORT_RANGE: PortRange = { first: 41000, last: 41999 };

/** "41000-41999" to a range; an Error saying what is wrong otherwise (a bad setting stops the server's start). */
export function parsePortRange(text: string | undefined): PortRange {
  if (text === undefined || text.trim() === "") return DEFAULT_PORT_RANGE;
  const m = /^\s*(\d{1,5})\s*-\s*(\d{1,5})\s*$/.exec(text);
  const first = Number(m?.[1]);
  const last = Number(m?.[2]);
  if (!m || first < 1024 || last > 65535 || first > last)
    throw new Error(`YARD_PORT_RANGE must be FIRST-LAST within 1024-65535 (got ${JSON.stringify(text)})`);
  return { first, last };
}

/** Whether this process could listen on the port on every IPv4 address (false: something holds it). */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once("error", () => resolve(false));
    server.listen({ port, host: "0.0.0.0", exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** Whether something accepts connections on 127.0.0.1:<port> within `timeoutMs`. */
export function listening(port: number, timeoutMs = 300): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/**
 * `count` ports from `range` that are not in `held` and free on the machine: `prefer`red ones
 * first (a resumed task gets its old ports back when it can), then the lowest. CONFLICT when the
 * range has too few.
 */
export async function pickPorts(
  count: number,
  range: PortRange,
  held: ReadonlySet<number>,
  opts: { prefer?: readonly number[]; isFree?: (port: number) => Promise<boolean> } = {},
): Promise<number[]> {
  const isFree = opts.isFree ?? portFree;
  const picked: number[] = [];
  const candidates = [...(opts.prefer ?? []).filter((p) => p >= range.first && p <= range.last)];
  for (let p = range.first; p <= range.last; p++) candidates.push(p);
  const seen = new Set<number>();
  for (const p of candidates) {
    if (picked.length === count) break;
    if (seen.has(p) || held.has(p)) continue;
    seen.add(p);
    if (await isFree(p)) picked.push(p);
  }
  if (picked.length < count)
    throw new YardError(
      "CONFLICT",
      `Only ${picked.length} of the ${count} ports the task asks for are free in ${range.first}-${range.last} (YARD_PORT_RANGE); finish tasks that hold ports or widen the range`,
      { wanted: count, free: picked.length, range: `${range.first}-${range.last}` },
    );
  return picked;
}
