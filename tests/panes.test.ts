// Panes end to end: the real server, real PTYs, the real `yard hook` / CLI. Every refusal of the
// submit gate is checked against the bytes that actually reached the program (a recorder).
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { request } from "./helpers/http";
import { ROOT, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

const FIXTURES = path.join(ROOT, "server/core/hooks/fixtures");
const fixture = (name: string) =>
  JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), "utf8")) as Record<string, unknown>;
const RECORDER = path.join(ROOT, "tests/programs/recorder.mjs");

let server: TestServer;
let api: ReturnType<typeof adminClient>;
let tmp: string;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  tmp = mkdtempSync(path.join(os.tmpdir(), "yard-panes-"));
});
afterAll(async () => {
  await server?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
async function recorder(args: string[] = []) {
  const file = path.join(tmp, `rec-${++n}.bin`);
  const pane = await api.panes.spawn.mutate({
    argv: [process.execPath, RECORDER, file, ...args],
    cwd: tmp,
    label: `recorder ${n}`,
  });
  await waitFor(
    async () =>
      (await api.panes.read.query({ id: pane.id })).text.includes("ready") ||
      (await api.panes.read.query({ id: pane.id })).text.length > 0,
    { what: "recorder ready" },
  );
  return { pane, file, bytes: () => readFileSync(file, "latin1") };
}
const hook = (paneId: string, event: string, payload: Record<string, unknown> = {}) =>
  api.hooks.post.mutate({
    paneId,
    event,
    payload: { session_id: "s", transcript_path: "/dev/null", cwd: tmp, hook_event_name: event, ...payload },
  });
const lifecycle = async (id: string) => (await api.panes.get.query({ id })).lifecycle;

describe("spawn", () => {
  it("runs the child in the requested cwd and injects lineage, token and yard on PATH", async () => {
    const parent = await api.panes.spawn.mutate({ argv: ["sh", "-c", "sleep 30"], cwd: tmp, label: "parent" });
    const envFile = path.join(tmp, "env.txt");
    const child = await api.panes.spawn.mutate({
      argv: ["sh", "-c", `pwd > ${envFile}.pwd; env > ${envFile}; command -v yard >> ${envFile}; sleep 30`],
      cwd: tmp,
      parentPaneId: parent.id,
      relationship: "fork",
    });
    expect(child).toMatchObject({
      parentPaneId: parent.id,
      rootPaneId: parent.id,
      relationship: "fork",
      cwd: tmp,
      live: true,
    });
    expect(child.pid).toBeGreaterThan(0);
    const env = await waitFor(() => {
      try {
        const t = readFileSync(envFile, "utf8");
        // The whole path: npm runs tests with npm_package_bin_yard=…/bin/yard.js in the environment.
        return t.includes(path.join(server.home, "bin/yard")) ? t : null;
      } catch {
        return null;
      }
    });
    expect(readFileSync(`${envFile}.pwd`, "utf8").trim()).toBe(realpathSync(tmp));
    const vars = Object.fromEntries(
      env
        .split("\n")
        .filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    );
    expect(vars.YARD_PANE).toBe(child.id);
    expect(vars.YARD_PARENT_PANE).toBe(parent.id);
    expect(vars.YARD_URL).toBe(server.url);
    expect(vars.YARD_TOKEN).toMatch(new RegExp(`^yp_${child.id}_`));
    expect(vars.YARD_TOKEN).not.toContain(server.token);
    expect(vars.YARD_TASK).toBeUndefined();
    expect(env).toContain(path.join(server.home, "bin/yard"));
    expect(vars.YARD_HOME).toBeUndefined();
    const grandchild = await api.panes.spawn.mutate({ argv: ["true"], cwd: tmp, parentPaneId: child.id });
    expect(grandchild.rootPaneId).toBe(parent.id);
    await api.panes.kill.mutate({ id: parent.id });
    await api.panes.kill.mutate({ id: child.id });
  });

  it("runs `yard` in a pane without NODE_EXTRA_CA_CERTS (it talks only to its server), while the program keeps it", async () => {
    const dir = mkdtempSync(path.join(tmp, "ca-"));
    const out = (name: string) => path.join(dir, name);
    // A file that does not exist: Node warns about it at start-up, so the warning shows who read it.
    const pane = await api.panes.spawn.mutate({
      argv: [
        "sh",
        "-c",
        `printf '%s' "$NODE_EXTRA_CA_CERTS" > ${out("agent")}; yard --json whoami > ${out("whoami.tmp")} 2> ${out("stderr")}; mv ${out("whoami.tmp")} ${out("whoami")}; sleep 30`,
      ],
      cwd: tmp,
      env: { NODE_EXTRA_CA_CERTS: out("missing-ca.pem") },
    });
    await waitFor(() => existsSync(out("whoami")), { what: "yard whoami in the pane" });
    expect(readFileSync(out("agent"), "utf8")).toBe(out("missing-ca.pem"));
    expect(JSON.parse(readFileSync(out("whoami"), "utf8"))).toMatchObject({ paneId: pane.id });
    expect(readFileSync(out("stderr"), "utf8")).toBe("");
    await api.panes.kill.mutate({ id: pane.id });
  });

  it("validates input and creates nothing on bad input", async () => {
    const before = (await api.panes.list.query()).length;
    expect((await errorOf(() => api.panes.spawn.mutate({ argv: ["true"], cwd: "/nonexistent-dir" }))).code).toBe(
      "BAD_PARAMS",
    );
    expect((await errorOf(() => api.panes.spawn.mutate({ argv: [] as unknown as string[], cwd: tmp }))).code).toBe(
      "BAD_PARAMS",
    );
    expect((await errorOf(() => api.panes.spawn.mutate({ agent: "nope", cwd: tmp }))).code).toBe("NOT_FOUND");
    expect((await errorOf(() => api.panes.spawn.mutate({ argv: ["true"], agent: "shell", cwd: tmp }))).code).toBe(
      "BAD_PARAMS",
    );
    expect(
      (await errorOf(() => api.panes.spawn.mutate({ argv: ["true"], cwd: tmp, parentPaneId: "paneunknown1" }))).code,
    ).toBe("NOT_FOUND");
    expect((await api.panes.list.query()).length).toBe(before);
  });

  it("records the exit code, emits an event and refuses input afterwards", async () => {
    const pane = await api.panes.spawn.mutate({ argv: ["sh", "-c", "echo bye; exit 3"], cwd: tmp });
    const exited = await waitFor(async () => {
      const p = await api.panes.get.query({ id: pane.id });
      return p.lifecycle === "exited" ? p : null;
    });
    expect(exited.exitCode).toBe(3);
    expect(exited.live).toBe(false);
    const events = await api.events.list.query({ paneId: pane.id, type: "pane.lifecycle" });
    expect(events.events.at(-1)?.payload).toMatchObject({ to: "exited", exitCode: 3 });
    expect((await api.panes.read.query({ id: pane.id })).text).toContain("bye");
    expect((await errorOf(() => api.panes.sendKeys.mutate({ id: pane.id, text: "x" }))).code).toBe("PANE_EXITED");
  });

  it("kill ends the whole process group", async () => {
    const pidFile = path.join(tmp, "grandchild.pid");
    const pane = await api.panes.spawn.mutate({
      argv: ["sh", "-c", `sleep 300 & echo $! > ${pidFile}; wait`],
      cwd: tmp,
    });
    const pid = Number(
      await waitFor(() => {
        try {
          return readFileSync(pidFile, "utf8").trim() || null;
        } catch {
          return null;
        }
      }),
    );
    const killed = await api.panes.kill.mutate({ id: pane.id });
    expect(killed.lifecycle).toBe("exited");
    await waitFor(
      () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      },
      { what: "background child to die" },
    );
  });
});

describe("hooks", () => {
  it("map Claude Code events to the lifecycle; subagents never mark done; unknown events change nothing", async () => {
    const { pane } = await recorder();
    const steps: Array<[string, string]> = [
      ["SessionStart", "idle"],
      ["UserPromptSubmit", "working"],
      ["PermissionRequest", "blocked"],
      ["PostToolUse", "working"],
      ["Notification-permission_prompt", "blocked"],
      ["PreToolUse", "working"],
      ["Notification-idle_prompt", "working"],
      ["PreToolUse-subagent", "working"],
      ["SubagentStop", "working"],
      ["Stop", "done"],
    ];
    for (const [name, expected] of steps) {
      const payload = fixture(name);
      const res = await api.hooks.post.mutate({ paneId: pane.id, event: payload.hook_event_name as string, payload });
      expect([name, res.lifecycle]).toEqual([name, expected]);
    }
    await hook(pane.id, "UserPromptSubmit");
    const subStop = await hook(pane.id, "Stop", { agent_id: "a1" });
    expect(subStop.lifecycle).toBe("working");
    const unknown = await hook(pane.id, "SomethingNew");
    expect(unknown.lifecycle).toBe("working");
    const journal = await api.events.list.query({ paneId: pane.id, type: "pane.hook" });
    expect(journal.events.some((e) => e.payload.name === "SomethingNew")).toBe(true);
    await api.panes.kill.mutate({ id: pane.id });
  });

  it("refuses malformed and oversized payloads", async () => {
    const { pane } = await recorder();
    expect((await errorOf(() => api.hooks.post.mutate({ paneId: pane.id, event: "Stop", payload: "nope" }))).code).toBe(
      "BAD_PARAMS",
    );
    expect(
      (
        await errorOf(() =>
          api.hooks.post.mutate({
            paneId: pane.id,
            event: "Stop",
            payload: { hook_event_name: "Stop", big: "x".repeat(300 * 1024) },
          }),
        )
      ).code,
    ).toBe("BAD_PARAMS");
    expect(
      (await errorOf(() => api.hooks.post.mutate({ paneId: pane.id, event: "Bad Name!", payload: {} }))).code,
    ).toBe("BAD_PARAMS");
    expect(await lifecycle(pane.id)).not.toBe("done");
    await api.panes.kill.mutate({ id: pane.id });
  });

  it("yard hook posts with the pane's own token, which cannot touch another pane or admin routes", async () => {
    const other = await recorder();
    const script = `printf '%s' '{"session_id":"s","transcript_path":"/dev/null","cwd":"/","hook_event_name":"SessionStart"}' | yard hook SessionStart; echo "rc=$?"; echo "$YARD_TOKEN" > ${tmp}/tok; sleep 30`;
    const pane = await api.panes.spawn.mutate({ argv: ["sh", "-c", script], cwd: tmp });
    await waitFor(async () => (await api.panes.read.query({ id: pane.id })).text.includes("rc=0"), {
      what: "yard hook to finish",
    });
    expect(await lifecycle(pane.id)).toBe("idle");
    const token = readFileSync(path.join(tmp, "tok"), "utf8").trim();
    const asPane = clientWithToken(server, token);
    expect(
      (
        await asPane.hooks.post.mutate({
          paneId: pane.id,
          event: "UserPromptSubmit",
          payload: { hook_event_name: "UserPromptSubmit" },
        })
      ).lifecycle,
    ).toBe("working");
    expect(
      (
        await errorOf(() =>
          asPane.hooks.post.mutate({ paneId: other.pane.id, event: "Stop", payload: { hook_event_name: "Stop" } }),
        )
      ).code,
    ).toBe("FORBIDDEN");
    expect((await errorOf(() => asPane.projects.list.query())).code).toBe("FORBIDDEN");
    const page = await request(`${server.url}/`, { headers: { authorization: `Bearer ${token}` } });
    expect(page.status).toBe(403);
    const forged = clientWithToken(server, `${token.slice(0, -4)}AAAA`);
    expect((await errorOf(() => forged.hooks.post.mutate({ paneId: pane.id, event: "Stop", payload: {} }))).code).toBe(
      "UNAUTHORIZED",
    );
    await api.panes.kill.mutate({ id: pane.id });
    await api.panes.kill.mutate({ id: other.pane.id });
  });

  it("yard hook exits 0 when the server is down, saying why", async () => {
    const res = await yard({ home: tmp }, ["hook", "Stop"], {
      env: { YARD_PANE: "paneabcdefgh", YARD_URL: "http://127.0.0.1:9", YARD_TOKEN: "x".repeat(43) },
      input: JSON.stringify(fixture("Stop")),
    });
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/yard hook Stop: server not reachable/);
  });

  it("yard hook gives up on a server that never answers, exits 0 and says it timed out", async () => {
    // A listener that accepts the connection and never replies: only the hook's own deadline ends it.
    const net = await import("node:net");
    const sockets: import("node:net").Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", () => r()));
    try {
      const port = (silent.address() as import("node:net").AddressInfo).port;
      const res = await yard({ home: tmp }, ["hook", "Stop"], {
        env: { YARD_PANE: "paneabcdefgh", YARD_URL: `http://127.0.0.1:${port}`, YARD_TOKEN: "x".repeat(43) },
        input: JSON.stringify(fixture("Stop")),
      });
      expect(res.code).toBe(0);
      expect(res.stderr).toMatch(/yard hook Stop: (server not reachable .*timed out|gave up after 2 s)/);
      expect(sockets.length).toBeGreaterThan(0);
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
    }
  });
});

describe("submit gate", () => {
  it("refuses before writing a single byte: not ready, busy, blocked, empty, exited", async () => {
    const rec = await recorder(["--bracketed"]);
    const id = rec.pane.id;
    await hook(id, "Hello"); // any hook turns heuristics off; the pane stays starting
    expect(await lifecycle(id)).toBe("starting");
    expect(await errorOf(() => api.panes.submit.mutate({ id, text: "hi" }))).toMatchObject({
      code: "AGENT_NOT_READY",
      details: { state: "starting" },
    });
    await hook(id, "SessionStart");
    await hook(id, "UserPromptSubmit");
    expect(await errorOf(() => api.panes.submit.mutate({ id, text: "hi" }))).toMatchObject({
      code: "PANE_BUSY",
      details: { state: "working" },
    });
    await hook(id, "PermissionRequest");
    expect(await errorOf(() => api.panes.submit.mutate({ id, text: "hi" }))).toMatchObject({
      code: "PANE_BUSY",
      details: { state: "blocked" },
    });
    await hook(id, "Stop");
    expect((await errorOf(() => api.panes.submit.mutate({ id, text: "   " }))).code).toBe("BAD_PARAMS");
    expect(rec.bytes()).toBe("");
    await api.panes.kill.mutate({ id });
    expect((await errorOf(() => api.panes.submit.mutate({ id, text: "hi" }))).code).toBe("PANE_EXITED");
    expect(rec.bytes()).toBe("");
  });

  it("pastes bracketed, sends Enter separately, and stalls explicitly at the activity gate", async () => {
    const rec = await recorder(["--bracketed"]);
    await hook(rec.pane.id, "SessionStart");
    const err = await errorOf(() =>
      api.panes.submit.mutate({ id: rec.pane.id, text: "do it\x1b[201~ now", enterDelayMs: 50, stallMs: 400 }),
    );
    expect(err).toMatchObject({ code: "SUBMIT_STALLED", details: { stage: "activity_gate" } });
    expect(rec.bytes()).toBe("\x1b[200~do it now\x1b[201~\r");
    await api.panes.kill.mutate({ id: rec.pane.id });
  });

  it("counts a Stop that lands before the gate starts waiting (baseline, not attach time)", async () => {
    const rec = await recorder(["--on-enter", "Stop"]);
    await hook(rec.pane.id, "SessionStart");
    const res = await api.panes.submit.mutate({ id: rec.pane.id, text: "quick", enterDelayMs: 10, stallMs: 4000 });
    expect(res.ok).toBe(true);
    expect(res.lifecycle).toBe("done");
    expect(rec.bytes()).toBe("quick\r");
    await api.panes.kill.mutate({ id: rec.pane.id });
  });

  it("serializes submits: a concurrent second submit is refused and writes nothing", async () => {
    const rec = await recorder(["--on-enter", "UserPromptSubmit"]);
    await hook(rec.pane.id, "SessionStart");
    const first = api.panes.submit.mutate({ id: rec.pane.id, text: "first", enterDelayMs: 400 });
    await waitFor(() => rec.bytes().includes("first"), { what: "first paste" });
    const second = await errorOf(() => api.panes.submit.mutate({ id: rec.pane.id, text: "second" }));
    expect(second).toMatchObject({ code: "PANE_BUSY", details: { state: "submitting" } });
    expect((await first).lifecycle).toBe("working");
    expect(rec.bytes()).toBe("first\r");
    await api.panes.kill.mutate({ id: rec.pane.id });
  });

  it("the CLI reports refusals as JSON errors with exit code 1", async () => {
    const rec = await recorder();
    await hook(rec.pane.id, "UserPromptSubmit");
    const res = await yard(server, ["--json", "pane", "submit", rec.pane.id, "hello"]);
    expect(res.code).toBe(1);
    expect(res.json.error).toMatchObject({ code: "PANE_BUSY", details: { state: "working" } });
    expect(rec.bytes()).toBe("");
    await api.panes.kill.mutate({ id: rec.pane.id });
  });
});

describe("rendered reads", () => {
  it("delta returns only new lines, and an unchanged pane returns nothing", async () => {
    const pane = await api.panes.spawn.mutate({
      argv: ["bash", "--norc", "--noprofile", "-i"],
      cwd: tmp,
      env: { PS1: "$ " },
    });
    await api.panes.sendKeys.mutate({ id: pane.id, text: "printf 'one\\ntwo\\n'", enter: true });
    const first = await waitFor(async () => {
      const r = await api.panes.read.query({ id: pane.id, mode: "delta", cursor: 0, reader: "t" });
      return r.text.includes("two\n") ? r : null;
    });
    const same = await api.panes.read.query({ id: pane.id, mode: "delta", cursor: first.cursor, reader: "t" });
    expect(same).toMatchObject({ text: "", cursor: first.cursor, dropped: null });
    await api.panes.sendKeys.mutate({ id: pane.id, text: "echo three", enter: true });
    const next = await waitFor(async () => {
      const r = await api.panes.read.query({ id: pane.id, mode: "delta", cursor: first.cursor, reader: "t" });
      return /^three$/m.test(r.text) ? r : null;
    });
    expect(next.text).not.toContain("one");
    expect(next.text).not.toContain("two");
    expect(next.cursor).toBeGreaterThan(first.cursor);
    const cli = await yard(server, ["--json", "pane", "read", pane.id, "--mode", "tail", "--lines", "2"]);
    expect(cli.json).toMatchObject({ dropped: null });
    expect(cli.json.text.split("\n").filter(Boolean)).toHaveLength(2);
    await api.panes.kill.mutate({ id: pane.id });
  });

  it("reports scrollback eviction as dropped {from, to} and returns what is left", async () => {
    const pane = await api.panes.spawn.mutate({ argv: ["sh", "-c", "seq 1 7000; sleep 30"], cwd: tmp, rows: 24 });
    const r = await waitFor(async () => {
      const t = await api.panes.read.query({ id: pane.id, mode: "tail", lines: 1 });
      return t.text === "7000\n" ? t : null;
    });
    const d = await api.panes.read.query({ id: pane.id, mode: "delta", cursor: 0 });
    expect(d.dropped).not.toBeNull();
    expect(d.dropped!.from).toBe(0);
    const lines = d.text.split("\n").filter(Boolean);
    expect(d.dropped!.to).toBe(7000 - lines.length);
    expect(lines[0]).toBe(String(d.dropped!.to + 1));
    expect(lines.at(-1)).toBe("7000");
    expect(lines.length).toBeGreaterThanOrEqual(5000);
    expect(d.cursor).toBe(r.cursor);
    await api.panes.kill.mutate({ id: pane.id });
  });
});

describe("attention", () => {
  it("ranks blocked before crashed before done, clears done when seen, and follows answers", async () => {
    const done = await recorder();
    await hook(done.pane.id, "Stop");
    const crashed = await api.panes.spawn.mutate({ argv: ["sh", "-c", "exit 7"], cwd: tmp });
    await waitFor(async () => (await lifecycle(crashed.id)) === "exited");
    const blocked = await recorder(["--on-enter", "PostToolUse"]);
    await hook(blocked.pane.id, "PermissionRequest");

    const ids = (items: Array<{ paneId: string; reason: string }>) =>
      items
        .filter((i) => [done.pane.id, crashed.id, blocked.pane.id].includes(i.paneId))
        .map((i) => [i.paneId, i.reason]);
    const { items } = await api.panes.attention.query();
    expect(ids(items)).toEqual([
      [blocked.pane.id, "blocked"],
      [crashed.id, "crashed"],
      [done.pane.id, "done"],
    ]);
    const cli = await yard(server, ["--json", "attention", "--limit", "1"]);
    expect(cli.json.items).toHaveLength(1);
    expect(cli.json.items[0].reason).toBe("blocked");

    await api.panes.markSeen.mutate({ id: done.pane.id });
    await api.panes.markSeen.mutate({ id: crashed.id });
    // The user answers the prompt in the terminal; the agent's next hook says it is working again.
    const answer = await yard(server, ["--json", "pane", "send-keys", blocked.pane.id, "y", "--enter"]);
    expect(answer.code).toBe(0);
    await waitFor(async () => (await lifecycle(blocked.pane.id)) === "working", {
      what: "answered pane to work again",
    });
    expect(blocked.bytes()).toBe("y\r");
    expect(ids((await api.panes.attention.query()).items)).toEqual([]);
    await api.panes.kill.mutate({ id: done.pane.id });
    await api.panes.kill.mutate({ id: blocked.pane.id });
  });
});

describe("yard CLI for panes", () => {
  it("spawn, list, get, read, send-keys, kill, events round-trip as JSON", async () => {
    const spawned = await yard(server, [
      "--json",
      "pane",
      "spawn",
      "--cwd",
      tmp,
      "--label",
      "cli-shell",
      "--cols",
      "100",
      "--rows",
      "30",
      "--",
      "sh",
      "-c",
      "echo from-cli; sleep 30",
    ]);
    expect(spawned.code).toBe(0);
    const p = spawned.json.pane;
    expect(p).toMatchObject({
      label: "cli-shell",
      cwd: tmp,
      argv: ["sh", "-c", "echo from-cli; sleep 30"],
      cols: 100,
      rows: 30,
      parentPaneId: null,
      taskId: null,
    });
    for (const key of [
      "id",
      "label",
      "lifecycle",
      "pid",
      "exitCode",
      "cwd",
      "argv",
      "parentPaneId",
      "rootPaneId",
      "relationship",
      "taskId",
      "createdAt",
    ])
      expect(p).toHaveProperty(key);
    const list = await yard(server, ["--json", "pane", "list"]);
    expect(list.json.panes.map((x: { id: string }) => x.id)).toContain(p.id);
    const got = await yard(server, ["--json", "pane", "get", p.id]);
    expect(got.json.pane.id).toBe(p.id);
    await waitFor(async () => (await api.panes.read.query({ id: p.id })).text.includes("from-cli"));
    const read = await yard(server, ["--json", "pane", "read", p.id]);
    expect(read.json).toMatchObject({ text: expect.stringContaining("from-cli"), dropped: null });
    expect(typeof read.json.cursor).toBe("number");
    const killed = await yard(server, ["--json", "pane", "kill", p.id]);
    expect(killed.json.pane.lifecycle).toBe("exited");
    const events = await yard(server, ["--json", "events", "--pane", p.id, "--type", "pane.*"]);
    const types = events.json.events.map((e: { type: string }) => e.type);
    expect(types[0]).toBe("pane.spawned");
    expect(types).toContain("pane.lifecycle");
    const seqs = events.json.events.map((e: { seq: number }) => e.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    const missing = await yard(server, ["--json", "pane", "get", "panenothere1"]);
    expect(missing.json.error.code).toBe("NOT_FOUND");
    const bad = await yard(server, ["--json", "pane", "read", p.id, "--mode", "sideways"]);
    expect(bad.json.error.code).toBe("BAD_PARAMS");
  }, 90_000);

  it("events --follow streams JSON lines as they happen", async () => {
    const { spawn } = await import("node:child_process");
    const { head } = await api.events.list.query({ limit: 1 });
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, "cli/bin/yard.js"),
        "--json",
        "events",
        "--follow",
        "--type",
        "pane.spawned",
        "--since",
        String(head),
      ],
      {
        env: { ...process.env, YARD_HOME: server.home, YARD_URL: "", YARD_TOKEN: "" },
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const p = await api.panes.spawn.mutate({ argv: ["true"], cwd: tmp, label: "followed" });
    const line = await waitFor(() => out.split("\n").find((l) => l.includes(p.id)), { what: "followed event" });
    child.kill();
    expect(JSON.parse(line)).toMatchObject({ type: "pane.spawned", paneId: p.id });
  });
});
