// `yard hook <Event>` without the TypeScript toolchain, so an agent's hook costs one Node start-up
// and one HTTP request (node:http). Reads the hook JSON on stdin and posts it for this pane (YARD_PANE) with
// the pane's token (YARD_TOKEN) to YARD_URL, or over the Unix socket YARD_SOCKET when that is set
// (a sandboxed pane has no network). When nothing listens there (the server is restarting), it
// hands the hook to the pane host's relay (YARD_HOOK_SOCKET), which forwards it, in order, once
// the server is back. It always exits 0, within about 2 s, so it can never block an agent: when
// it cannot post, it says why on stderr.
// `yard hook <Event> '<json>'` takes the payload from its argument instead of stdin: Codex's
// `notify` program gets its turn-complete JSON that way (`yard hook CodexNotify`).
// To a board served over HTTPS it posts with node:https, trusting only the board's certificate
// (YARD_SERVER_CERT, see tls-pin.mjs).
const MAX_STDIN = 300 * 1024;
const HARD_DEADLINE_MS = 1900;

/** @param {number} limitMs @returns {Promise<string>} */
function readStdin(limitMs) {
  if (process.stdin.isTTY) return Promise.resolve("");
  return new Promise((resolve) => {
    let data = "";
    const done = () => {
      clearTimeout(timer);
      process.stdin.removeAllListeners();
      process.stdin.pause();
      resolve(data);
    };
    const timer = setTimeout(done, limitMs);
    process.stdin.setEncoding("utf8");
    process.stdin.on("data", (chunk) => {
      data += chunk;
      if (data.length > MAX_STDIN) done();
    });
    process.stdin.on("end", done);
    process.stdin.on("error", done);
  });
}

/** @param {string} event @param {string} [argPayload] the payload as an argument (Codex notify) */
export async function runHook(event, argPayload) {
  const started = Date.now();
  /** @param {string} msg */
  const fail = (msg) => {
    // The message may quote the server or the argument: no terminal controls reach the agent's terminal.
    process.stderr.write(
      `${`yard hook ${event}: ${msg}`.replace(
        /[\u0000-\u001f\u007f-\u009f]/g,
        (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`,
      )}\n`,
    );
    process.exit(0);
  };
  setTimeout(() => fail("gave up after 2 s"), HARD_DEADLINE_MS).unref();
  if (!EVENT_NAME.test(event ?? "")) return fail("usage: yard hook <EventName> (hook JSON on stdin)");
  const raw = argPayload !== undefined ? argPayload : await readStdin(800);
  let payload;
  try {
    payload = raw.trim() ? JSON.parse(raw) : { hook_event_name: event };
  } catch {
    return fail("stdin is not valid JSON; nothing posted");
  }
  const problem = await postHook(event, payload, process.env, HARD_DEADLINE_MS - 100 - (Date.now() - started));
  if (problem) return fail(problem);
  process.exit(0);
}

const EVENT_NAME = /^[A-Za-z]{1,64}$/;

/**
 * Posts one hook for the pane `env` describes (YARD_PANE, YARD_TOKEN, YARD_URL or YARD_SOCKET;
 * YARD_HOOK_SOCKET for the relay) within about `timeoutMs`. What `yard hook` does after reading
 * its payload, callable in-process by an agent written in JavaScript (the demo agent), as Claude
 * Code's http hooks post without a process. Resolves with null once posted (or relayed), or with
 * why not; never rejects.
 * @param {string} event @param {unknown} payload @param {Record<string, string | undefined>} env @param {number} timeoutMs
 * @returns {Promise<string | null>}
 */
export async function postHook(event, payload, env, timeoutMs) {
  const started = Date.now();
  if (!EVENT_NAME.test(event ?? "")) return "the event name must be 1-64 letters";
  const { YARD_PANE: paneId, YARD_URL: url, YARD_TOKEN: token, YARD_SOCKET: socket } = env;
  if (!paneId || !(url || socket) || !token)
    return "not inside a Switchyard pane (YARD_PANE, YARD_URL and YARD_TOKEN are not all set); nothing posted";
  const body = JSON.stringify({ paneId, event, payload });
  const headers = { "content-type": "application/json", authorization: `Bearer ${token}` };
  const left = () => Math.max(200, timeoutMs - (Date.now() - started));
  try {
    // node:http, not fetch: fetch's first request in a process costs tens of milliseconds, and
    // this runs twice on every tool call of the agent.
    const res = socket
      ? await post({ socketPath: socket, path: "/api/trpc/hooks.post", host: "localhost" }, headers, body, left())
      : await post(await tcpTarget(/** @type {string} */ (url), env.YARD_SERVER_CERT), headers, body, left());
    if (!res.ok) {
      /** @type {any} */
      const body = await res.json().catch(() => null);
      return `refused (${body?.error?.data?.yard?.code ?? res.status}): ${body?.error?.message ?? res.statusText}`;
    }
    return null;
  } catch (e) {
    const err = /** @type {Error & { code?: string, cause?: { code?: string } }} */ (e);
    const relay = env.YARD_HOOK_SOCKET;
    if (relay && DOWN.has(err.code ?? err.cause?.code ?? "")) {
      try {
        /** @type {any} */
        const reply = await postToRelay(relay, JSON.stringify({ paneId, token, event, payload }), left());
        if (reply?.ok) return null;
        return `server not reachable, and the pane host refused the hook (${reply?.error?.code ?? "?"}): ${reply?.error?.message ?? ""}`;
      } catch (re) {
        return `server not reachable at ${socket ?? url}, nor the pane host's relay (${/** @type {Error} */ (re).message})`;
      }
    }
    return `server not reachable at ${socket ?? url} (${err.name === "TimeoutError" ? "timed out" : err.message})`;
  }
}

/** Errors that mean nothing is listening (the server is down or restarting): the relay takes the hook. */
const DOWN = new Set(["ECONNREFUSED", "ENOENT", "ECONNRESET", "EPIPE"]);

/**
 * One hook to the pane host's relay: a JSON line out, a JSON line back.
 * @param {string} socketPath @param {string} line @param {number} timeoutMs @returns {Promise<unknown>}
 */
async function postToRelay(socketPath, line, timeoutMs) {
  const { default: net } = await import("node:net");
  return new Promise((resolve, reject) => {
    const s = net.connect(socketPath);
    let buf = "";
    const timer = setTimeout(() => s.destroy(new Error("timed out")), timeoutMs);
    s.setEncoding("utf8");
    s.on("connect", () => s.write(`${line}\n`));
    s.on("data", (d) => (buf += d));
    s.on("end", () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(buf));
      } catch {
        reject(new Error("no answer"));
      }
    });
    s.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/**
 * @typedef {{ socketPath?: string, hostname?: string, port?: number, path: string, host: string,
 *   tls?: import("node:https").RequestOptions }} Target where to post, `tls` for https (pinned when a certificate is given)
 */

/**
 * Where hooks.post is for a server URL: host, port and path for node:http, or for an https URL
 * node:https's options, trusting only the certificate file `cert` when one is given.
 * @param {string} url @param {string | undefined} cert @returns {Promise<Target>}
 */
async function tcpTarget(url, cert) {
  const u = new URL(`${url.replace(/\/+$/, "")}/api/trpc/hooks.post`);
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new Error(`YARD_URL must be an http:// or https:// URL (got ${u.protocol})`);
  const https = u.protocol === "https:";
  const target = { hostname: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port || (https ? 443 : 80)) };
  if (!https) return { ...target, path: u.pathname, host: u.host };
  const tls = cert ? await (await import("./tls-pin.mjs")).pinnedTls(cert) : {};
  return { ...target, path: u.pathname, host: u.host, tls };
}

/**
 * A POST over TCP (http or https) or a Unix socket, answering the little of a fetch Response that runHook reads.
 * @param {Target} target @param {Record<string, string>} headers @param {string} body @param {number} timeoutMs
 * @returns {Promise<{ ok: boolean, status: number, statusText: string, json(): Promise<unknown> }>}
 */
async function post(target, headers, body, timeoutMs) {
  const { host, tls, ...where } = target;
  const { default: http } = tls ? await import("node:https") : await import("node:http");
  return new Promise((resolve, reject) => {
    // agent: false, a connection per hook. A long-lived caller (the demo agent posts in-process)
    // would otherwise reuse an idle keep-alive socket just as the server closes it (its 5 s
    // keep-alive timeout): the post fails with ECONNRESET and goes to the relay, which hands it
    // to the server after the agent's next request, out of order.
    const req = http.request(
      {
        ...where,
        ...tls,
        agent: false,
        method: "POST",
        headers: { ...headers, host, "content-length": Buffer.byteLength(body) },
        timeout: timeoutMs,
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          resolve({
            ok: status >= 200 && status < 300,
            status,
            statusText: res.statusMessage ?? "",
            json: async () => JSON.parse(text),
          });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(Object.assign(new Error("timed out"), { name: "TimeoutError" })));
    req.on("error", reject);
    req.end(body);
  });
}
