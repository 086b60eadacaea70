// The connection caps on real HTTP servers and real sockets: over a cap the oldest idle connection
// (own listener first) makes room, busy ones are never closed for a newcomer, and when all are
// busy the newcomer gets a 503 and is closed at once. Over HTTPS too.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import { afterEach, describe, expect, it } from "vitest";
import {
  ConnectionLimiter,
  connectionCapsFrom,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_MAX_CONNECTIONS_TOTAL,
} from "./connections";

const servers: (http.Server | https.Server)[] = [];
const clients: net.Socket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((r) => {
          s.closeAllConnections();
          s.close(() => r());
        }),
    ),
  );
});

/** A server (HTTPS with `secure`) whose /hold requests stay unanswered until `release()`. */
async function serve(limiter: ConnectionLimiter, secure?: { cert: string; key: string }) {
  const held: http.ServerResponse[] = [];
  const handler: http.RequestListener = (req, res) => {
    if (req.url === "/hold") return void held.push(res);
    res.end("ok");
  };
  const srv = secure ? https.createServer(secure, handler) : http.createServer(handler);
  limiter.watch(srv);
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return {
    port: (srv.address() as AddressInfo).port,
    held: () => held.length,
    release: () => {
      for (const r of held.splice(0)) r.end("done");
    },
  };
}

/** A connected client that sends `request` (or nothing); `closed` settles when the server ends it. */
async function connect(port: number, request?: string) {
  const sock = net.connect(port, "127.0.0.1");
  clients.push(sock);
  let got = "";
  sock.on("data", (d) => (got += d));
  const closed = new Promise<string>((resolve) => sock.on("close", () => resolve(got)));
  sock.on("error", () => {});
  await new Promise<void>((r) => sock.once("connect", () => r()));
  if (request) sock.write(request);
  return { sock, closed, received: () => got };
}

const GET = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
const until = async (probe: () => boolean) => {
  while (!probe()) await new Promise((r) => setTimeout(r, 5));
};

describe("ConnectionLimiter", () => {
  it("reads its caps from the environment, with defaults", () => {
    expect(connectionCapsFrom({})).toEqual({
      perListener: DEFAULT_MAX_CONNECTIONS,
      total: DEFAULT_MAX_CONNECTIONS_TOTAL,
    });
    expect(connectionCapsFrom({ YARD_MAX_CONNECTIONS: "8", YARD_MAX_CONNECTIONS_TOTAL: "12" })).toEqual({
      perListener: 8,
      total: 12,
    });
    expect(connectionCapsFrom({ YARD_MAX_CONNECTIONS: "0", YARD_MAX_CONNECTIONS_TOTAL: "lots" })).toEqual({
      perListener: DEFAULT_MAX_CONNECTIONS,
      total: DEFAULT_MAX_CONNECTIONS_TOTAL,
    });
  });

  it("closes the oldest idle connection to admit a new one, and never a busy one", async () => {
    const limiter = new ConnectionLimiter({ perListener: 3, total: 10 });
    const a = await serve(limiter);
    const busy = await connect(a.port, GET("/hold"));
    await until(() => a.held() === 1);
    const idle1 = await connect(a.port, "GET / HTTP/1.1\r\nHost: 1"); // half a request
    const idle2 = await connect(a.port);
    await until(() => limiter.connections === 3);
    const fresh = await connect(a.port, GET("/"));
    expect(await idle1.closed).toBe(""); // the oldest idle one made room
    await until(() => fresh.received().includes("ok"));
    expect(busy.sock.destroyed || idle2.sock.destroyed).toBe(false);
    expect(limiter.stats).toEqual({ refused: 0, evicted: 1 });
    a.release();
    await until(() => busy.received().includes("done"));
  });

  it("refuses a newcomer with a 503 when every connection is busy", async () => {
    const limiter = new ConnectionLimiter({ perListener: 2, total: 10 });
    const a = await serve(limiter);
    const b1 = await connect(a.port, GET("/hold"));
    const b2 = await connect(a.port, GET("/hold"));
    await until(() => a.held() === 2);
    const refused = await connect(a.port, GET("/"));
    expect(await refused.closed).toMatch(/^HTTP\/1\.1 503 /);
    expect(limiter.stats.refused).toBe(1);
    a.release();
    await until(() => b1.received().includes("done") && b2.received().includes("done"));
  });

  it("holds the total across listeners: a full total takes room from the newcomer's own listener first", async () => {
    const limiter = new ConnectionLimiter({ perListener: 3, total: 4 });
    const a = await serve(limiter);
    const b = await serve(limiter);
    const onA = [await connect(a.port), await connect(a.port), await connect(a.port)];
    const onB = await connect(b.port);
    await until(() => limiter.connections === 4);
    // B is under its own cap but the total is full: B's own oldest idle connection goes.
    const second = await connect(b.port, GET("/"));
    expect(await onB.closed).toBe("");
    await until(() => second.received().includes("ok"));
    expect(onA.every((c) => !c.sock.destroyed)).toBe(true);
    expect(limiter.connections).toBe(4);
  });

  it("over HTTPS, counts a request as busy on the TCP connection its TLS socket wraps", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-conn-tls-"));
    try {
      const [certFile, keyFile] = [path.join(dir, "c.pem"), path.join(dir, "k.pem")];
      execFileSync(
        "openssl",
        ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
          .concat(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-days", "1"])
          .concat(["-keyout", keyFile, "-out", certFile]),
        { stdio: "ignore" },
      );
      const cert = readFileSync(certFile, "utf8");
      const limiter = new ConnectionLimiter({ perListener: 2, total: 10 });
      const a = await serve(limiter, { cert, key: readFileSync(keyFile, "utf8") });
      const busy = tls.connect({ port: a.port, host: "127.0.0.1", ca: cert });
      clients.push(busy);
      let answer = "";
      busy.on("data", (d) => (answer += d));
      await new Promise<void>((r) => busy.once("secureConnect", () => r()));
      busy.write(GET("/hold"));
      await until(() => a.held() === 1);
      const idle = await connect(a.port); // a TCP connection that never starts its handshake
      await until(() => limiter.connections === 2);
      const fresh = await new Promise<string>((resolve, reject) => {
        https
          .get({ port: a.port, host: "127.0.0.1", path: "/", ca: cert, agent: false }, (res) => {
            let body = "";
            res.on("data", (d) => (body += d));
            res.on("end", () => resolve(body));
          })
          .on("error", reject);
      });
      expect(fresh).toBe("ok");
      expect(await idle.closed).toBe(""); // the idle one made room, not the older busy one
      expect(busy.destroyed).toBe(false);
      a.release();
      await until(() => answer.includes("done"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
