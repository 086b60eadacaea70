// yard hook <Event>: what an agent's hook runs. Reads the hook JSON on stdin and posts it with the
// pane's own token. It always exits 0, within about 2 s, so it can never block an agent: when the
// server is down or refuses the post, it says why on stderr and exits anyway.
import type { Command } from "commander";
import { resolveConnection } from "../connection";

const MAX_STDIN = 300 * 1024;
const DEADLINE_MS = 1800;

async function readStdin(limitMs: number): Promise<string> {
  if (process.stdin.isTTY) return "";
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
    process.stdin.on("data", (chunk: string) => {
      data += chunk;
      if (data.length > MAX_STDIN) done();
    });
    process.stdin.on("end", done);
    process.stdin.on("error", done);
  });
}

export function registerHook(program: Command) {
  program
    .command("hook <event>")
    .description("Post an agent hook (JSON on stdin) for this pane; always exits 0")
    .action(async (event: string) => {
      const started = Date.now();
      const fail = (msg: string) => {
        process.stderr.write(`yard hook ${event}: ${msg}\n`);
        process.exit(0);
      };
      const hardStop = setTimeout(() => fail("gave up after 2 s"), 1950);
      hardStop.unref();
      const paneId = process.env.YARD_PANE;
      const raw = await readStdin(800);
      if (!paneId) return fail("not inside a Switchyard pane (YARD_PANE is not set); nothing posted");
      let payload: unknown;
      try {
        payload = raw.trim() ? JSON.parse(raw) : { hook_event_name: event };
      } catch {
        return fail("stdin is not valid JSON; nothing posted");
      }
      let conn;
      try {
        conn = resolveConnection();
      } catch (e) {
        return fail((e as Error).message);
      }
      try {
        const res = await fetch(`${conn.url}/api/trpc/hooks.post`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${conn.token}` },
          body: JSON.stringify({ paneId, event, payload }),
          signal: AbortSignal.timeout(Math.max(200, DEADLINE_MS - (Date.now() - started))),
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => null)) as { error?: { message?: string; data?: { yard?: { code: string } } } } | null;
          return fail(`refused (${body?.error?.data?.yard?.code ?? res.status}): ${body?.error?.message ?? res.statusText}`);
        }
      } catch (e) {
        return fail(`server not reachable at ${conn.url} (${(e as Error).name === "TimeoutError" ? "timed out" : (e as Error).message})`);
      }
      process.exit(0);
    });
}
