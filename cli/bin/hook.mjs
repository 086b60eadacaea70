// `yard hook <Event>` without the TypeScript toolchain, so an agent's hook costs one Node start-up
// and one HTTP request. Reads the hook JSON on stdin and posts it for this pane (YARD_PANE) with
// the pane's token (YARD_TOKEN) to YARD_URL. It always exits 0, within about 2 s, so it can never
// block an agent: when it cannot post, it says why on stderr.
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

/** @param {string} event */
export async function runHook(event) {
  const started = Date.now();
  /** @param {string} msg */
  const fail = (msg) => {
    process.stderr.write(`yard hook ${event}: ${msg}\n`);
    process.exit(0);
  };
  setTimeout(() => fail("gave up after 2 s"), HARD_DEADLINE_MS).unref();
  if (!/^[A-Za-z]{1,64}$/.test(event ?? "")) return fail("usage: yard hook <EventName> (hook JSON on stdin)");
  const raw = await readStdin(800);
  const { YARD_PANE: paneId, YARD_URL: url, YARD_TOKEN: token } = process.env;
  if (!paneId || !url || !token) return fail("not inside a Switchyard pane (YARD_PANE, YARD_URL and YARD_TOKEN are not all set); nothing posted");
  let payload;
  try {
    payload = raw.trim() ? JSON.parse(raw) : { hook_event_name: event };
  } catch {
    return fail("stdin is not valid JSON; nothing posted");
  }
  try {
    const res = await fetch(`${url.replace(/\/+$/, "")}/api/trpc/hooks.post`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ paneId, event, payload }),
      signal: AbortSignal.timeout(Math.max(200, HARD_DEADLINE_MS - 100 - (Date.now() - started))),
    });
    if (!res.ok) {
      /** @type {any} */
      const body = await res.json().catch(() => null);
      return fail(`refused (${body?.error?.data?.yard?.code ?? res.status}): ${body?.error?.message ?? res.statusText}`);
    }
  } catch (e) {
    const err = /** @type {Error} */ (e);
    return fail(`server not reachable at ${url} (${err.name === "TimeoutError" ? "timed out" : err.message})`);
  }
  process.exit(0);
}
