// The pane host's requests: connections, `hello` (the secret, the contract's version, the
// connection's role: one server at a time, any number of `control` connections), and the op
// table. Every request is checked against its schema in ops.ts before anything is done (a bad
// one is BAD_PARAMS), against the connection's role (control connections may send only the ops
// marked `control`), then handled by exactly one entry of `handlers`, in arrival order.
import type net from "node:net";
import en from "zod/v4/locales/en.js";
import { YardError } from "../core/errors";
import { Conn } from "./connection";
import type { Deliveries } from "./deliveries";
import { type PaneTable, paneStatus } from "./host-pane";
import type { MirrorPool } from "./mirror-pool";
import { isOpName, OPS, type OpName, type OpParams, type OpReply, PROTOCOL } from "./ops";
import { processAlive, secretMatches } from "./protocol";
import type { PtyIo } from "./pty-io";
import type { ServerLink } from "./server-link";

const HELLO_MS = 5000;

/** What the handlers work on: the host's parts (host.ts builds it). */
export interface HostParts {
  secret: string;
  startedAt: string;
  panes: PaneTable;
  io: PtyIo;
  pool: MirrorPool;
  deliveries: Deliveries;
  link: ServerLink;
  /** Open control connections (the CLI, tests). */
  controls: Set<Conn>;
  /** Resolves once the mirror workers' code is loaded: requests wait for it. */
  poolReady: () => Promise<void>;
  stop: (reason: string, opts: { stopPanes: boolean; graceMs: number }) => Promise<void>;
  log: (line: string) => void;
}

/** One connection: what it said it is at `hello` (null before). */
interface Session {
  conn: Conn;
  role: "server" | "control" | null;
}

type Handler<Op extends OpName> = (
  args: OpParams<Op>,
  host: HostParts,
  session: Session,
) => OpReply<Op> | Promise<OpReply<Op>>;
export type Handlers = { [Op in OpName]: Handler<Op> };

export const handlers = {
  hello,
  status: async (_, h) => ({
    hostPid: process.pid,
    startedAt: h.startedAt,
    serverPid: h.link.conn ? h.link.pid : null,
    running: h.panes.running().length,
    mirrors: await h.pool.mirrorCount(),
    ...h.deliveries.status(),
    serving: h.link.serving,
  }),
  list: (_, h) => ({ panes: [...h.panes.values()].map(paneStatus) }),
  serving: (a, h) => {
    h.link.serving = a;
    return {};
  },
  ready: (_, h) => {
    // From now on records go to this server as they happen; first, everything it missed.
    const delivered = h.deliveries.deliverAll();
    h.link.ready = true;
    return { delivered };
  },
  ack: (a, h) => {
    const d = h.deliveries.ack(a.seq);
    if (d?.kind === "exit") h.panes.delete(d.paneId); // the server has recorded it: the pane is gone
    return {};
  },
  spawn: (a, h) => h.io.spawn(a),
  write: (a, h) => {
    h.io.write(a.paneId, a.data);
    return {};
  },
  resize: (a, h) => {
    h.io.resize(a.paneId, a.cols, a.rows);
    return {};
  },
  kill: (a, h) => {
    const p = h.panes.pane(a.paneId);
    if (p.state === "running") void h.io.kill(p, a.graceMs);
    return {};
  },
  read: (a, h) => {
    const p = h.io.mirrored(a.paneId);
    return h.pool.request<OpReply<"read">>(p.id, "read", {
      mode: a.mode,
      lines: a.lines,
      cursor: a.cursor,
      reader: a.reader,
    });
  },
  snapshot: (a, h) => h.pool.request<OpReply<"snapshot">>(h.io.mirrored(a.paneId).id, "snapshot"),
  attach: (a, h) => h.io.attach(a.paneId),
  detach: (a, h) => {
    const p = h.panes.get(a.paneId);
    if (p) p.subscribed = false;
    return {};
  },
  modes: (a, h) => h.pool.request<OpReply<"modes">>(h.io.mirrored(a.paneId).id, "modes"),
  configure: (a, h) => {
    const p = h.panes.pane(a.paneId);
    if (a.activity !== undefined) p.activity = a.activity;
    return {};
  },
  stats: (a, h) => h.io.stats(a),
  shutdown: (a, h, s) => {
    // Answer first; the stop (and the process exit) follow.
    setImmediate(() => void h.stop(`shutdown requested by ${s.role}`, a));
    return { stopping: h.panes.running().length };
  },
  bye: (_, h, s) => {
    if (s.role === "server" && h.link.conn === s.conn) serverGone(h);
    setImmediate(() => s.conn.end()); // after the reply
    return {};
  },
} satisfies Handlers;

/** Authenticates the connection as the server (refused while another live one is attached) or as a control connection. */
function hello(a: OpParams<"hello">, h: HostParts, s: Session): OpReply<"hello"> {
  if (s.role !== null) throw new YardError("CONFLICT", "This connection has already said hello");
  if (a.role === "server") {
    const { link } = h;
    if (link.conn && !link.conn.closed && processAlive(link.pid) && link.pid !== a.pid)
      throw new YardError("CONFLICT", `Another Switchyard server (pid ${link.pid}) is attached to this pane host`, {
        pid: link.pid,
      });
    if (link.conn) {
      const old = link.conn;
      serverGone(h);
      old.destroy();
    }
    link.attach(s.conn, a.pid);
  } else h.controls.add(s.conn);
  s.role = a.role;
  return {
    hostPid: process.pid,
    protocol: PROTOCOL,
    startedAt: h.startedAt,
    serving: h.link.serving,
    panes: [...h.panes.values()].map(paneStatus),
  };
}

function serverGone(h: HostParts): void {
  h.link.detach();
  h.panes.serverGone();
}

const localeError = en().localeError;

/** The request's arguments as its schema defines them; BAD_PARAMS (naming every problem) when they are not. */
function parseArgs<Op extends OpName>(op: Op, raw: unknown): OpParams<Op> {
  const r = OPS[op].args.safeParse(raw, { error: localeError });
  if (r.success) return r.data as OpParams<Op>;
  const problems = r.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ${i.message}` : i.message));
  throw new YardError("BAD_PARAMS", `Bad ${op} request: ${problems.join("; ")}`, { op, problems });
}

/** Runs one request of an authenticated connection (after every earlier one started). */
async function dispatch(h: HostParts, s: Session, op: string, raw: Record<string, unknown>): Promise<unknown> {
  await h.poolReady(); // (every request, so they stay in arrival order)
  if (!isOpName(op)) throw new YardError("BAD_PARAMS", `unknown pane host request ${op}`);
  if (s.role === "control" && !OPS[op].control) throw new YardError("FORBIDDEN", `A control connection cannot ${op}`);
  return call(op, parseArgs(op, raw), h, s);
}

function call<Op extends OpName>(op: Op, args: OpParams<Op>, h: HostParts, s: Session) {
  const table: Handlers = handlers;
  const handler: Handler<Op> = table[op];
  return handler(args, h, s);
}

export function onConnection(h: HostParts, socket: net.Socket): void {
  const session: Session = { conn: new Conn(socket), role: null };
  const { conn } = session;
  const helloTimer = setTimeout(() => session.role === null && conn.destroy(), HELLO_MS);
  conn.onClose(() => {
    clearTimeout(helloTimer);
    if (session.role === "control") h.controls.delete(conn);
    if (session.role === "server" && h.link.conn === conn) serverGone(h);
  });
  conn.onMessage = (m) => {
    const { id, op, ...raw } = m;
    if (typeof op !== "string") return conn.destroy();
    if (session.role !== null) {
      void dispatch(h, session, op, raw).then(
        (r) => conn.reply(id, op as OpName, r as never),
        (e) => conn.replyError(id, e),
      );
      return;
    }
    // Before hello: the secret first, then the contract's version (whatever the rest of the
    // request looks like: a client of another version may send another shape), then the rest.
    try {
      if (op !== "hello" || !secretMatches(raw.secret, h.secret))
        throw new YardError("UNAUTHORIZED", "The pane host needs its secret");
      if (raw.protocol !== PROTOCOL)
        throw new YardError(
          "CONFLICT",
          `This pane host speaks protocol ${PROTOCOL}, the client ${String(raw.protocol)}`,
          {
            protocol: PROTOCOL,
            hostPid: process.pid,
          },
        );
      conn.reply(id, "hello", hello(parseArgs("hello", raw), h, session));
      clearTimeout(helloTimer);
    } catch (e) {
      conn.replyError(id, e);
      conn.end();
    }
  };
}
