// The pane host's contract (ops.ts) held against the host that serves it: one handler per op and
// one op per handler, a version that follows every schema, and a real host (in this process, with
// a real PTY and mirror worker) that refuses every malformed request with BAD_PARAMS before doing
// anything, refuses a client of another version at hello, and a server that says what to do
// about a host of another version.
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { YardError } from "../core/errors";
import { PaneHostClient } from "./client";
import { Conn, connectSocket } from "./connection";
import { type Handlers, handlers } from "./dispatcher";
import { PaneHost } from "./host";
import { contractVersion, EVENTS, OPS, type OpArgs, type OpName, PROTOCOL } from "./ops";
import { hostPaths, listenPrivateSocket, loadHostSecret } from "./protocol";

const ENV = { PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tmpHome = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "yard-contract-"));
  dirs.push(d);
  return d;
};
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as YardError,
  );

describe("the op table", () => {
  it("has a handler for every op of the contract and an op for every handler", () => {
    expect(Object.keys(handlers).sort()).toEqual(Object.keys(OPS).sort());
    // The typecheck refuses the same tables:
    // @ts-expect-error an op without a handler
    const missing: Handlers = { ...handlers, bye: undefined };
    // @ts-expect-error a handler without an op
    const extra: Handlers = { ...handlers, reboot: () => ({}) };
    expect(Object.keys(missing).length).toBe(Object.keys(extra).length - 1);
  });
});

describe("PROTOCOL", () => {
  it("is a hash of the whole contract: any schema, body field, role, op or event changes it", () => {
    expect(PROTOCOL).toMatch(/^[0-9a-f]{16}$/);
    expect(contractVersion(OPS, EVENTS)).toBe(PROTOCOL);
    const changed = [
      contractVersion(
        { ...OPS, kill: { ...OPS.kill, args: z.strictObject({ paneId: z.string(), graceMs: z.optional(z.int()) }) } },
        EVENTS,
      ),
      contractVersion({ ...OPS, spawn: { ...OPS.spawn, reply: z.object({ pid: z.string() }) } }, EVENTS),
      contractVersion({ ...OPS, write: { ...OPS.write, body: undefined } }, EVENTS),
      contractVersion({ ...OPS, list: { ...OPS.list, control: undefined } }, EVENTS),
      contractVersion({ ...OPS, reboot: OPS.bye }, EVENTS),
      contractVersion(OPS, { ...EVENTS, resync: { payload: z.object({ paneId: z.string(), why: z.string() }) } }),
      contractVersion(OPS, { ...EVENTS, output: { ...EVENTS.output, body: undefined } }),
    ];
    expect(new Set([PROTOCOL, ...changed]).size).toBe(changed.length + 1);
  });
});

/** The frames in `raw` as sent: each one's JSON header and body bytes. */
function frames(raw: Buffer): Array<{ header: Record<string, unknown>; body: Buffer }> {
  const out = [];
  for (let at = 0; at < raw.length; ) {
    const end = at + 4 + raw.readUInt32BE(at);
    const headerEnd = at + 8 + raw.readUInt32BE(at + 4);
    out.push({ header: JSON.parse(raw.toString("utf8", at + 8, headerEnd)), body: raw.subarray(headerEnd, end) });
    at = end;
  }
  return out;
}

describe("the contract's binary fields", () => {
  it("travel as the frame's body, not in its JSON header: input, read text, snapshots, output", async () => {
    const file = path.join(tmpHome(), "s.sock");
    let host!: Conn;
    const toHost: Buffer[] = [];
    const listener = net.createServer((s) => {
      s.on("data", (d: Buffer) => toHost.push(d));
      host = new Conn(s);
      host.onMessage = (m) => {
        if (m.op === "write") host.reply(m.id, "write", {});
        else host.reply(m.id, "read", { text: "screen\x1b[1m é", cursor: 3, start: 1, dropped: null });
      };
    });
    await listenPrivateSocket(listener, file);
    const socket = await connectSocket(file);
    const toClient: Buffer[] = [];
    socket.on("data", (d: Buffer) => toClient.push(d));
    const client = new Conn(socket);
    const event = new Promise((resolve) => (client.onMessage = resolve));
    try {
      await client.request("write", { paneId: "paneabcd", data: "héllo\x1b" });
      const read = await client.request("read", { paneId: "paneabcd", mode: "screen" });
      expect(read).toEqual({ text: "screen\x1b[1m é", cursor: 3, start: 1, dropped: null });
      host.emit("output", { paneId: "paneabcd", offset: 5, data: Buffer.from([0, 255, 0x1b]) });
      expect(await event).toEqual({ ev: "output", paneId: "paneabcd", offset: 5, data: Buffer.from([0, 255, 0x1b]) });

      const [write, readRequest] = frames(Buffer.concat(toHost));
      expect(write).toEqual({
        header: { id: 1, op: "write", paneId: "paneabcd", $b: "data", $t: "s" },
        body: Buffer.from("héllo\x1b"),
      });
      expect(readRequest!.body.length).toBe(0);
      const [writeReply, readReply, output] = frames(Buffer.concat(toClient));
      expect(writeReply).toEqual({ header: { re: 1, ok: true, result: {} }, body: Buffer.alloc(0) });
      expect(readReply).toEqual({
        header: { re: 2, ok: true, result: { cursor: 3, start: 1, dropped: null }, $b: "result.text", $t: "s" },
        body: Buffer.from("screen\x1b[1m é"),
      });
      expect(output).toEqual({
        header: { ev: "output", paneId: "paneabcd", offset: 5, $b: "data", $t: "b" },
        body: Buffer.from([0, 255, 0x1b]),
      });
    } finally {
      client.destroy();
      listener.close();
    }
  });
});

describe("a pane host", () => {
  let home: string;
  let host: PaneHost;
  let server: Conn;
  const paneId = "panecontract01";

  const open = async (hello: Record<string, unknown>) => {
    const c = new Conn(await connectSocket(hostPaths(home).socket));
    const closed = new Promise<void>((resolve) => c.onClose(() => resolve()));
    const args = {
      secret: loadHostSecret(home, false),
      role: "server",
      pid: process.pid,
      protocol: PROTOCOL,
      ...hello,
    };
    return { c, closed, hello: c.request("hello", args as OpArgs<"hello">) };
  };
  const connect = async (role: "server" | "control") => {
    const { c, hello } = await open({ role });
    await hello;
    return c;
  };

  beforeAll(async () => {
    home = tmpHome();
    host = new PaneHost({ home, log: () => {}, workers: 1 });
    expect(await host.start()).toBe(true);
    server = await connect("server");
    const argv = ["/bin/sh", "-c", "echo ready; exec sleep 60"];
    await server.request("spawn", { paneId, argv, env: ENV, cwd: home, cols: 80, rows: 24, scrollback: 100 });
    for (;;) {
      const { text } = await server.request("read", { paneId, mode: "screen" });
      if (text.includes("ready")) break;
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  afterAll(async () => {
    server?.destroy();
    await host?.stop("test", { stopPanes: true, graceMs: 100 });
  });

  /** Everything a request could have changed that the server can see. */
  const observe = async () => {
    const { mirrors: _, ...status } = await server.request("status", {});
    const { panes } = await server.request("list", {});
    const { text } = await server.request("read", { paneId, mode: "screen" });
    return { status, panes, text };
  };

  it("refuses a malformed request of every op with BAD_PARAMS, naming the problem, and does nothing", async () => {
    // Each op: a well-formed request, and changes to it each of which makes it malformed.
    const cases: { [Op in Exclude<OpName, "hello">]: { valid: OpArgs<Op>; bad: Record<string, unknown>[] } } = {
      status: { valid: {}, bad: [{ verbose: true }] },
      list: { valid: {}, bad: [{ all: 1 }] },
      serving: {
        valid: { url: "http://127.0.0.1:4000", host: "127.0.0.1", port: 4000 },
        bad: [{ port: "4000" }, { port: 70_000 }, { url: undefined }],
      },
      ready: { valid: {}, bad: [{ since: 3 }] },
      ack: { valid: { seq: 1 }, bad: [{ seq: 0 }, { seq: "1" }, { seq: undefined }] },
      spawn: {
        valid: { paneId: "panecontract02", argv: ["true"], env: ENV, cwd: home, cols: 80, rows: 24, scrollback: 100 },
        bad: [
          { paneId: "../x" },
          { argv: [] },
          { argv: "true" },
          { env: { A: 1 } },
          { cwd: undefined },
          { cols: 0 },
          { rows: 1.5 },
          { scrollback: undefined },
          { backpressure: { highBytes: -1 } },
          { backpressure: { high: 1 } },
          { tokenHash: 5 },
          { sandbox: true },
        ],
      },
      write: { valid: { paneId, data: "typed\r" }, bad: [{ data: 5 }, { data: undefined }, { paneId: 7 }] },
      resize: { valid: { paneId, cols: 100, rows: 30 }, bad: [{ cols: 1 }, { rows: 10_001 }, { cols: "100" }] },
      kill: { valid: { paneId, graceMs: 100 }, bad: [{ graceMs: -1 }, { graceMs: "soon" }, { signal: "KILL" }] },
      read: {
        valid: { paneId, mode: "screen" },
        bad: [{ mode: "all" }, { lines: 0 }, { cursor: -1 }, { reader: "r".repeat(65) }],
      },
      snapshot: { valid: { paneId }, bad: [{ paneId: undefined }, { paneId: "pane" }] },
      attach: { valid: { paneId }, bad: [{ paneId: null }, { offset: 3 }] },
      detach: { valid: { paneId }, bad: [{ paneId: ["x"] }] },
      modes: { valid: { paneId }, bad: [{ paneId: "" }] },
      configure: { valid: { paneId, activity: true }, bad: [{ activity: "yes" }] },
      stats: { valid: { paneId }, bad: [{ untilParsed: -1 }, { timeoutMs: "1s" }] },
      shutdown: { valid: { stopPanes: false }, bad: [{ stopPanes: "no" }, { graceMs: -5 }] },
      bye: { valid: {}, bad: [{ reason: "done" }] },
    };
    expect(Object.keys(cases).sort()).toEqual(
      Object.keys(OPS)
        .filter((op) => op !== "hello")
        .sort(),
    );
    const before = await observe();
    for (const [name, c] of Object.entries(cases)) {
      const op = name as OpName;
      expect(OPS[op].args.safeParse(c.valid).success, `${op}'s well-formed example`).toBe(true);
      for (const change of c.bad) {
        const e = await failure(server.request(op, { ...c.valid, ...change } as never));
        expect(e, `${op} with ${JSON.stringify(change)}`).toMatchObject({ code: "BAD_PARAMS" });
        expect(e!.message).toMatch(new RegExp(`^Bad ${op} request: \\S`));
      }
    }
    expect(await observe()).toEqual(before);
    expect(before.panes).toMatchObject([{ paneId, state: "running", cols: 80, rows: 24 }]);
    expect(before.status).toMatchObject({ serverPid: process.pid, serving: null, running: 1 });
  });

  it("refuses a malformed hello with BAD_PARAMS and closes the connection, attaching nothing", async () => {
    for (const change of [{ role: "admin" }, { pid: "me" }, { pid: undefined }, { resume: true }]) {
      const { hello, closed } = await open({ pid: 1, ...change });
      expect(await failure(hello), JSON.stringify(change)).toMatchObject({ code: "BAD_PARAMS" });
      await closed;
    }
    expect((await server.request("status", {})).serverPid).toBe(process.pid);
  });

  it("refuses a client of another contract at hello with CONFLICT, whatever else its hello holds", async () => {
    for (const hello of [{ protocol: "0123456789abcdef" }, { protocol: 1 }, { protocol: 1, pid: "x", legacy: true }]) {
      const { hello: reply, closed } = await open(hello);
      const e = await failure(reply);
      expect(e, JSON.stringify(hello)).toMatchObject({
        code: "CONFLICT",
        details: { protocol: PROTOCOL, hostPid: process.pid },
      });
      await closed;
    }
    const { hello } = await open({ secret: "not-the-secret-not-the-secret-00" });
    expect(await failure(hello)).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("lets a control connection send only the ops the contract marks for it", async () => {
    const control = await connect("control");
    try {
      for (const op of Object.keys(OPS) as OpName[]) {
        if (op === "hello") continue;
        const e = await failure(control.request(op, { paneId: "panenothere" } as never));
        if (OPS[op].control) expect(e?.code, op).not.toBe("FORBIDDEN");
        else expect(e, op).toMatchObject({ code: "FORBIDDEN" });
      }
    } finally {
      control.destroy();
    }
  });
});

describe("a connection that fails", () => {
  it("fails its requests with PANE_HOST_UNAVAILABLE, not the socket's raw error (EPIPE: a host that stopped as we wrote)", async () => {
    const file = path.join(tmpHome(), "s.sock");
    const listener = net.createServer(() => {}); // accepts, never answers
    await listenPrivateSocket(listener, file);
    const socket = await connectSocket(file);
    const c = new Conn(socket);
    try {
      const hello = c
        .request("hello", { secret: "x", role: "server", pid: process.pid, protocol: PROTOCOL })
        .catch((e: unknown) => e);
      socket.destroy(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      const e = await hello;
      expect(e).toBeInstanceOf(YardError);
      expect(e).toMatchObject({ code: "PANE_HOST_UNAVAILABLE", details: { cause: "write EPIPE" } });
      expect((e as Error).message).toContain("write EPIPE");
    } finally {
      c.destroy();
      listener.close();
    }
  });
});

describe("a server meeting a pane host of another contract", () => {
  it("refuses to use it and says how to stop it", async () => {
    const home = tmpHome();
    loadHostSecret(home, true);
    // A host started by an older Switchyard: it refuses our hello, as every host of another contract does.
    const old = net.createServer((s) => {
      const c = new Conn(s);
      c.onMessage = (m) => {
        c.replyError(m.id, new YardError("CONFLICT", "This pane host speaks protocol 1", { protocol: 1 }));
        c.end();
      };
    });
    await listenPrivateSocket(old, hostPaths(home).socket);
    try {
      const e = await failure(PaneHostClient.open({ home, log: () => {} }));
      expect(e).toMatchObject({ code: "CONFLICT", details: { protocol: PROTOCOL, hostProtocol: 1 } });
      expect(e!.message).toMatch(/speaks protocol 1, this server [0-9a-f]{16}.*Stop it with `yard stop --all`/);
    } finally {
      old.close();
    }
  });
});
