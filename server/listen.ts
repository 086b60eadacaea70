// Listening: the TCP port's server (HTTP, or HTTPS with --tls-cert/--tls-key), the port (a port
// in use says how to pick another) and the API's Unix socket under the data dir (a stale socket of
// a crashed server is replaced, a live one refused), which accepts from the start of start-up and
// holds what arrives until the server can answer (SocketGate).
import { lstatSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { MAX_SOCKET_PATH, socketPathFits } from "./config";
import { ensurePrivateDir, listenPrivateSocket } from "./panehost/protocol";

export function portInUseMessage(port: number): string {
  return `Port ${port} is already in use (is another Switchyard running?). Pick another with PORT=${port + 1} npm start, or yard serve --port ${port + 1}.`;
}

/** The TCP port's server: the same handler over HTTP, or over HTTPS when given a certificate and its key. */
export type WebServer = http.Server | https.Server;

export function createWebServer(
  onRequest: http.RequestListener,
  tls?: { cert: string; key: string; handshakeTimeout: number },
): WebServer {
  // Both check header and request timeouts every 2 s (Node's default is every 30 s).
  const common = { connectionsCheckingInterval: 2_000 };
  return tls ? https.createServer({ ...common, ...tls }, onRequest) : http.createServer(common, onRequest);
}

/** What breaks when the agents still running call `url` and this server speaks the other scheme; null when nothing does. */
export function schemeChange(url: string, tls: boolean): string | null {
  if (url.startsWith(tls ? "https:" : "http:")) return null;
  return `the agents still running call ${url}, and this server speaks ${tls ? "HTTPS" : "plain HTTP"}: their yard calls fail until they are restarted`;
}

export async function listen(server: net.Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const onError = (e: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(e.code === "EADDRINUSE" ? new Error(portInUseMessage(port)) : e);
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen(port, host);
  });
  return (server.address() as AddressInfo).port;
}

/**
 * Listens on a Unix socket at `file` (its directory 0700, the socket 0600). A socket left by a
 * crashed server (nobody answers) is removed first; a live one, or anything that is not a
 * socket, is left alone and reported.
 */
export async function listenSocket(server: net.Server, file: string): Promise<string> {
  if (!socketPathFits(file))
    throw new Error(
      `${file} is longer than the ${MAX_SOCKET_PATH} bytes a Unix socket path may have (use a shorter YARD_HOME)`,
    );
  ensurePrivateDir(path.dirname(file));
  let existing;
  try {
    existing = lstatSync(file);
  } catch {
    existing = null;
  }
  if (existing) {
    if (!existing.isSocket()) throw new Error(`${file} exists and is not a socket; remove it`);
    const live = await new Promise<boolean>((resolve) => {
      const c = net.connect(file);
      c.once("connect", () => {
        c.destroy();
        resolve(true);
      });
      c.once("error", () => resolve(false));
    });
    if (live)
      throw new Error(`another server is already listening on ${file} (a second Switchyard on the same data dir?)`);
    rmSync(file, { force: true });
  }
  await listenPrivateSocket(server, file);
  return file;
}

/**
 * The API socket's listener, opened before the server's services exist: connections that arrive
 * meanwhile wait (unread) and are handed to the HTTP server once it is ready (`open`), instead
 * of being refused. A runner's agents reach this socket through an SSH forward the board opens
 * while it starts (to reattach their panes): through the forward, a socket nobody listens on yet
 * looks like a connection that is accepted and then cut, which a `yard` mutation cannot safely
 * send again, so an agent's report in that window failed. At most `maxWaiting` connections wait;
 * more are closed.
 */
export class SocketGate {
  readonly listener: net.Server;
  private target: http.Server | null = null;
  private waiting = new Set<net.Socket>();

  constructor(private readonly maxWaiting = 256) {
    this.listener = net.createServer({ pauseOnConnect: true }, (socket) => this.arrive(socket));
  }

  private hand(server: http.Server, socket: net.Socket): void {
    server.emit("connection", socket);
    socket.resume(); // accepted paused (pauseOnConnect): nothing was read before the server's parser took it
  }

  private arrive(socket: net.Socket): void {
    if (this.target) this.hand(this.target, socket);
    else if (this.waiting.size >= this.maxWaiting) socket.destroy();
    else {
      this.waiting.add(socket);
      socket.once("close", () => this.waiting.delete(socket));
    }
  }

  /**
   * Hands the waiting connections, and every later one, to `server`, which never listens itself:
   * its 'listening' event starts what Node starts there (the connection list that request
   * timeouts and closeAllConnections work on); close it with `server.close()` as usual.
   */
  open(server: http.Server): void {
    this.target = server;
    server.emit("listening");
    for (const socket of this.waiting) this.hand(server, socket);
    this.waiting.clear();
  }

  /**
   * Stops listening and ends the connections still waiting. Handed-over ones are the server's to
   * close (closeAllConnections): this does not wait for them, as the listener's own close would.
   */
  close(): void {
    for (const socket of this.waiting) socket.destroy();
    this.waiting.clear();
    if (this.listener.listening) this.listener.close();
  }
}

/** The API socket at `file`, listening through a SocketGate: its state for the services, and how to close it. */
export async function openApiSocket(file: string) {
  const gate = new SocketGate();
  const state: { path: string } | { error: string } = await listenSocket(gate.listener, file).then(
    (f) => ({ path: f }),
    (e: Error) => ({ error: e.message }),
  );
  const close = () => {
    gate.close();
    if ("path" in state) rmSync(state.path, { force: true });
  };
  return { gate, state, close };
}
