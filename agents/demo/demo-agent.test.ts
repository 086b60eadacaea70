// Runs the real demo agent in a real PTY (node-pty), renders its output with @xterm/headless
// and records what it sends to `yard` through a fake `yard` executable on PATH (the real CLI
// is another module's job: the process boundary is the contract here).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as pty from "node-pty";
import x from "@xterm/headless";
import { describe, expect, it, type TestContext } from "vitest";

const { Terminal } = x;
type XTerm = InstanceType<typeof Terminal>;

const AGENT = path.join(path.dirname(fileURLToPath(import.meta.url)), "demo-agent.mjs");

// A fake `yard`: appends {argv, stdin} as one JSON line to $FAKE_YARD_LOG. `task ...` prints a
// line and exits with $FAKE_YARD_REPORT_EXIT; `hook <Event>` can be slowed down per event with
// $FAKE_YARD_DELAY_<Event> (ms) to check that hooks stay in order.
const FAKE_YARD = `#!/usr/bin/env node
const fs = require("fs");
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const argv = process.argv.slice(2);
  const wait = Number(process.env["FAKE_YARD_DELAY_" + (argv[1] || "")] || 0);
  setTimeout(() => {
    fs.appendFileSync(process.env.FAKE_YARD_LOG, JSON.stringify({ argv, stdin: Buffer.concat(chunks).toString("utf8") }) + "\\n");
    if (argv[0] === "task") {
      process.stdout.write("fake yard: report received\\n");
      process.exit(Number(process.env.FAKE_YARD_REPORT_EXIT || 0));
    }
    process.exit(0);
  }, wait);
});
`;

function writeFakeYard(dir: string, name: string) {
  // CommonJS whatever package.json is above the temp dir
  fs.writeFileSync(path.join(dir, "package.json"), '{"type":"commonjs"}\n');
  fs.writeFileSync(path.join(dir, name), FAKE_YARD, { mode: 0o755 });
}

type Call = { argv: string[]; stdin: string };
type Hook = { event: string; payload: Record<string, any> };

const COLS = 100;
const ROWS = 30;

async function waitFor<T>(
  what: string,
  fn: () => T | undefined | null | false,
  timeoutMs = 10_000,
  detail?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${detail ? `\n${detail()}` : ""}`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

// Cleanup goes through the test's own context: with concurrent tests the global
// onTestFinished would attach to whichever test happens to be current.
function tempDir(t: TestContext, prefix: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  t.onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// git for the commit tests: no global/system config (so the agent's fallback identity is what
// gets used unless the test repo sets one), C locale, and no GIT_* from whoever runs the tests
// (a GIT_DIR from a git hook would point the agent at the wrong repository).
function gitEnv(t: TestContext, ceiling?: string): Record<string, string | undefined> {
  const dir = tempDir(t, "yard-demo-git-");
  const cfg = path.join(dir, "gitconfig");
  fs.writeFileSync(cfg, "");
  const env: Record<string, string | undefined> = {};
  for (const k of Object.keys(process.env)) if (k.startsWith("GIT_")) env[k] = undefined;
  return {
    ...env,
    GIT_CONFIG_GLOBAL: cfg,
    GIT_CONFIG_NOSYSTEM: "1",
    LC_ALL: "C",
    ...(ceiling ? { GIT_CEILING_DIRECTORIES: ceiling } : {}),
  };
}

function git(cwd: string, env: Record<string, string | undefined>, ...args: string[]): string {
  const full: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) full[k] = v;
  // (the project's ProcessEnv type requires NODE_ENV, which a plain record can't promise)
  return execFileSync("git", args, {
    cwd,
    env: full as NodeJS.ProcessEnv,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trimEnd();
}

/** git init -b main with one commit (README), authored by a one-off identity. */
function initRepo(cwd: string, env: Record<string, string | undefined>) {
  git(cwd, env, "init", "-q", "-b", "main");
  fs.writeFileSync(path.join(cwd, "README"), "seed\n");
  git(cwd, env, "add", "-A");
  git(cwd, env, "-c", "user.name=Setup", "-c", "user.email=setup@localhost", "commit", "-q", "-m", "initial");
}

class Demo {
  readonly dir: string;
  readonly cwd: string;
  readonly log: string;
  readonly term: XTerm;
  readonly proc: pty.IPty;
  raw = "";
  exit: { exitCode: number; signal?: number } | null = null;

  constructor(
    t: TestContext,
    opts: { env?: Record<string, string | undefined>; args?: string[]; cols?: number; rows?: number } = {},
  ) {
    this.dir = tempDir(t, "yard-demo-test-");
    this.cwd = path.join(this.dir, "work");
    const bin = path.join(this.dir, "bin");
    fs.mkdirSync(this.cwd);
    fs.mkdirSync(bin);
    writeFakeYard(bin, "yard");
    this.log = path.join(this.dir, "yard.log");
    const cols = opts.cols ?? COLS;
    const rows = opts.rows ?? ROWS;
    this.term = new Terminal({ cols, rows, scrollback: 5000, allowProposedApi: true });
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !k.startsWith("YARD_") && !k.startsWith("DEMO_")) env[k] = v;
    }
    Object.assign(env, {
      TERM: "xterm-256color",
      PATH: [bin, path.dirname(process.execPath), process.env.PATH ?? ""].join(path.delimiter),
      YARD_PANE: "pane-test-1",
      FAKE_YARD_LOG: this.log,
      DEMO_TRANSCRIPT_DIR: path.join(this.dir, "transcripts"),
    });
    for (const [k, v] of Object.entries(opts.env ?? {})) {
      if (v === undefined) delete env[k];
      else env[k] = v;
    }
    this.proc = pty.spawn(process.execPath, [AGENT, ...(opts.args ?? [])], {
      cwd: this.cwd,
      cols,
      rows,
      env,
      name: "xterm-256color",
    });
    this.proc.onData((d) => {
      this.raw += d;
      this.term.write(d);
    });
    this.proc.onExit((e) => {
      this.exit = e;
    });
    t.onTestFinished(() => {
      if (!this.exit) {
        try {
          this.proc.kill("SIGKILL"); // no SessionEnd into a log that is about to go
        } catch {
          /* already gone */
        }
      }
      this.term.dispose();
    });
  }

  /** Every rendered line: scrollback then the screen, trailing blanks trimmed. */
  lines(): string[] {
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < b.length; i++) out.push(b.getLine(i)?.translateToString(true) ?? "");
    while (out.length && out[out.length - 1] === "") out.pop();
    return out;
  }

  /** The visible screen only. */
  screen(): string[] {
    const b = this.term.buffer.active;
    const out: string[] = [];
    for (let i = 0; i < this.term.rows; i++) out.push(b.getLine(b.viewportY + i)?.translateToString(true) ?? "");
    return out;
  }

  text(): string {
    return this.lines().join("\n");
  }

  /** Line `offset` rows from the (hidden) cursor, which the agent parks on its status line. */
  private rel(offset: number): string {
    const b = this.term.buffer.active;
    return b.getLine(b.baseY + b.cursorY + offset)?.translateToString(true) ?? "";
  }

  /** The composer's input line ("> text"), just above the status line. */
  input(): string {
    return this.rel(-1).replace(/ $/, ""); // minus the inverse-video cursor cell
  }

  separator(): string {
    return this.rel(-2);
  }

  status(): string {
    return this.rel(0);
  }

  calls(): Call[] {
    if (!fs.existsSync(this.log)) return [];
    return fs
      .readFileSync(this.log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Call);
  }

  hooks(): Hook[] {
    return this.calls()
      .filter((c) => c.argv[0] === "hook")
      .map((c) => ({ event: c.argv[1], payload: JSON.parse(c.stdin) }));
  }

  events(): string[] {
    return this.hooks().map((h) => h.event);
  }

  /** What the agent looks like now, for failure messages. */
  describe = () =>
    `--- screen ---\n${this.screen().join("\n").trimEnd()}\n--- yard calls: ${JSON.stringify(this.calls().map((c) => c.argv.join(" ")))}`;

  wait<T>(what: string, fn: () => T | undefined | null | false, timeoutMs?: number) {
    return waitFor(what, fn, timeoutMs, this.describe);
  }

  waitText(what: string | RegExp, timeoutMs?: number) {
    return this.wait(
      `screen text ${what}`,
      () => (typeof what === "string" ? this.text().includes(what) : what.test(this.text())),
      timeoutMs,
    );
  }

  waitHook(event: string, count = 1, timeoutMs?: number): Promise<Hook> {
    return this.wait(
      `${count} × ${event} hook`,
      () => {
        const hs = this.hooks().filter((h) => h.event === event);
        return hs.length >= count ? hs[count - 1] : undefined;
      },
      timeoutMs,
    );
  }

  waitReady(timeoutMs?: number) {
    return this.wait("status 'ready'", () => this.status().includes("ready"), timeoutMs);
  }

  waitExit(timeoutMs?: number) {
    return this.wait("process exit", () => this.exit, timeoutMs);
  }

  /** Put text into the composer (one write) and wait until it shows on the input line. */
  async type(text: string, shown = text) {
    this.proc.write(text);
    await this.wait(
      `composer to show ${JSON.stringify(shown)}`,
      () => this.input().startsWith(">") && this.input().includes(shown),
    );
  }

  /** Type a prompt, then press Enter as a separate write, as a person (or Switchyard) does. */
  async submit(prompt: string) {
    await this.type(prompt, prompt.replace(/\n/g, "↵"));
    this.proc.write("\r");
  }

  /** Submit and wait for that turn's Stop hook (the n-th Stop of the session). */
  async turn(prompt: string) {
    const stops = this.events().filter((e) => e === "Stop").length;
    await this.submit(prompt);
    const stop = await this.waitHook("Stop", stops + 1);
    await this.turnShown();
    return stop;
  }

  /**
   * After a Stop hook: the hook log is written by the agent, and this terminal parses the PTY
   * output on its own schedule, so the last of the turn's output may not be parsed yet. Waits
   * until the screen shows the turn over (empty composer, ready) before a test reads it.
   */
  turnShown() {
    return this.wait(
      "the screen after the turn",
      () => this.exit || (this.input() === "> " && this.status().includes("ready")),
    );
  }
}

// Each test runs its own agent in its own temp dirs: they run concurrently.
describe.concurrent("demo agent", () => {
  it("draws the banner, enables bracketed paste, posts SessionStart and becomes ready", async (t) => {
    const d = new Demo(t, { args: ["--name", "worker-1"] });
    await d.waitReady();
    expect(d.text()).toContain("Switchyard demo agent — type a prompt, or 'help'");
    expect(d.text()).toContain("worker-1");
    expect(d.raw).toContain("\x1b[?2004h");
    expect(d.term.modes.bracketedPasteMode).toBe(true);
    expect(d.raw).not.toContain("\x1b[?1049h"); // inline, not the alternate screen
    // bottom region: separator, "> " input line with an inverse-video cursor cell, status line
    expect(d.separator()).toBe("─".repeat(COLS - 1));
    expect(d.input()).toBe("> ");
    expect(d.status()).toContain("ready");
    const b = d.term.buffer.active;
    const inputRow = b.getLine(b.baseY + b.cursorY - 1);
    expect(inputRow?.getCell(2)?.isInverse()).toBeTruthy();
    expect(d.raw).toContain("\x1b[?25l"); // hardware cursor hidden, parked on the status line
    expect(b.cursorX).toBe(0);

    // SessionStart is posted before the UI says ready
    expect(d.events()).toEqual(["SessionStart"]);
    const [start] = d.hooks();
    expect(start.payload).toMatchObject({
      hook_event_name: "SessionStart",
      source: "startup",
      cwd: fs.realpathSync(d.cwd),
      permission_mode: "default",
    });
    expect(start.payload.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(start.payload.transcript_path).toContain(start.payload.session_id);
    expect(start.payload.transcript_path.startsWith(d.cwd)).toBe(false); // nothing lands in the worktree
  });

  it("runs a typed prompt: UserPromptSubmit, PreToolUse/PostToolUse, the file on disk, Stop", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    // typed key by key, with a Backspace, then Enter as its own write
    let typed = "";
    for (const ch of "write notes.txt hello world!") {
      typed += ch;
      d.proc.write(ch);
      await waitFor(`echo of ${ch}`, () => d.input() === `> ${typed}`);
    }
    d.proc.write("\x7f"); // Backspace
    await waitFor("backspace", () => d.input() === "> write notes.txt hello world");
    d.proc.write("\r");
    const stop = await d.waitHook("Stop");

    expect(fs.readFileSync(path.join(d.cwd, "notes.txt"), "utf8")).toBe("hello world\n");
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"]);
    const hooks = d.hooks();
    const sessionId = hooks[0].payload.session_id;
    for (const h of hooks) {
      expect(h.payload.session_id).toBe(sessionId);
      expect(h.payload.hook_event_name).toBe(h.event);
      expect(h.payload.cwd).toBe(fs.realpathSync(d.cwd));
      expect(h.payload.agent_id).toBeUndefined();
    }
    expect(hooks[1].payload.prompt).toBe("write notes.txt hello world");
    const file = path.join(fs.realpathSync(d.cwd), "notes.txt");
    expect(hooks[2].payload).toMatchObject({
      tool_name: "Write",
      tool_input: { file_path: file, content: "hello world\n" },
    });
    expect(hooks[3].payload).toMatchObject({
      tool_name: "Write",
      tool_response: { success: true },
      tool_use_id: hooks[2].payload.tool_use_id,
    });
    expect(stop.payload).toMatchObject({ stop_hook_active: false });
    expect(stop.payload.last_assistant_message).toContain("Wrote notes.txt");

    await d.turnShown();
    expect(d.text()).toContain("> write notes.txt hello world");
    expect(d.text()).toContain("● Write(notes.txt)");
    expect(d.text()).toContain("Wrote 1 line to notes.txt");
    expect(d.input()).toBe("> ");
  });

  it("does not submit a bracketed paste with newlines (or \\r) until Enter arrives on its own", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.type(
      "\x1b[200~print first\nprint second\rappend log.txt third\x1b[201~",
      "> print first↵print second↵append log.txt third",
    );
    // nothing ran: the text sits in the composer, no prompt was posted
    expect(d.events()).toEqual(["SessionStart"]);
    expect(d.text()).not.toMatch(/^first$/m);
    // a burst of typed text ending in \r is a paste too: still no submit
    await d.type(" more\r", "third more↵");
    expect(d.events()).toEqual(["SessionStart"]);

    d.proc.write("\x7f"); // drop the trailing newline
    await waitFor("newline removed", () => d.input().endsWith("third more"));
    d.proc.write("\r");
    const stop = await d.waitHook("Stop");
    expect(d.hooks().find((h) => h.event === "UserPromptSubmit")?.payload.prompt).toBe(
      "print first\nprint second\nappend log.txt third more",
    );
    expect(d.lines()).toContain("first");
    expect(d.lines()).toContain("second");
    expect(fs.readFileSync(path.join(d.cwd, "log.txt"), "utf8")).toBe("third more\n");
    expect(stop.payload.last_assistant_message).toContain("Appended a line to log.txt");
    expect(
      d
        .hooks()
        .filter((h) => h.event === "PreToolUse")
        .map((h) => h.payload.tool_name),
    ).toEqual(["Edit"]);
  });

  it("asks for permission: PermissionRequest + Notification, waits for 'y', then continues", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.submit("ask May I deploy to staging?; write after.txt done");
    const req = await d.waitHook("PermissionRequest");
    const note = await d.waitHook("Notification");
    await waitFor("Allow? (y/n) on the input line", () => d.input().includes("Allow? (y/n)"));
    expect(d.status()).toContain("waiting for permission");
    expect(req.payload).toMatchObject({ tool_name: "Bash", tool_input: { command: "May I deploy to staging?" } });
    expect(note.payload).toMatchObject({ notification_type: "permission_prompt" });
    // still blocked: nothing after the question, no file yet
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "Notification"]);
    expect(fs.existsSync(path.join(d.cwd, "after.txt"))).toBe(false);

    d.proc.write("y"); // one keystroke, no Enter
    const stop = await d.waitHook("Stop");
    expect(d.events()).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PermissionRequest",
      "Notification",
      "PostToolUse",
      "PreToolUse",
      "PostToolUse",
      "Stop",
    ]);
    expect(d.hooks()[5].payload).toMatchObject({ tool_name: "Bash", tool_response: { approved: true } });
    expect(fs.readFileSync(path.join(d.cwd, "after.txt"), "utf8")).toBe("done\n");
    expect(stop.payload.last_assistant_message).toContain("allowed");
    await d.turnShown();
    expect(d.text()).toContain("Allowed");
  });

  it("on 'n' notes the denial (PostToolUseFailure) and goes on with the turn", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.submit("ask Delete the build folder?\nprint carried on");
    await d.waitHook("Notification");
    await waitFor("question shown", () => d.input().includes("Allow? (y/n)"));
    d.proc.write("x"); // not an answer: ignored
    d.proc.write("n");
    const stop = await d.waitHook("Stop");
    await d.turnShown();
    expect(d.events().slice(-3)).toEqual(["Notification", "PostToolUseFailure", "Stop"]);
    expect(d.text()).toContain("Denied by user");
    expect(d.lines()).toContain("carried on");
    expect(stop.payload.last_assistant_message).toContain("denied");
  });

  it("crash <code> exits with that code, with no Stop and no SessionEnd", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.submit("write before.txt x; crash 3; write after.txt y");
    const exit = await d.waitExit();
    expect(exit.exitCode).toBe(3);
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"]);
    expect(fs.existsSync(path.join(d.cwd, "before.txt"))).toBe(true);
    expect(fs.existsSync(path.join(d.cwd, "after.txt"))).toBe(false);
    expect(d.raw).toContain("\x1b[?2004l");
  });

  it("ignore drops the whole prompt: no hooks, no output", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.submit("print should not appear; ignore; write ignored.txt x");
    await waitFor("composer cleared", () => d.input() === "> ");
    // the next prompt still works; by its Stop the ignored one would have shown up
    await d.turn("print after");
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "Stop"]);
    expect(
      d
        .hooks()
        .filter((h) => h.event === "UserPromptSubmit")
        .map((h) => h.payload.prompt),
    ).toEqual(["print after"]);
    expect(d.text()).not.toContain("should not appear");
    expect(fs.existsSync(path.join(d.cwd, "ignored.txt"))).toBe(false);
  });

  it("report runs `yard task report` with argv and shows its exit status", async (t) => {
    const d = new Demo(t, { env: { FAKE_YARD_REPORT_EXIT: "5" } });
    await d.waitReady();
    const stop = await d.turn("write out.txt ok; report completed Added out.txt; it's done");
    const calls = d.calls();
    const report = calls.find((c) => c.argv[0] === "task");
    expect(report?.argv).toEqual(["task", "report", "--status", "completed", "--summary", "Added out.txt"]);
    // the report goes after the hooks posted before it, inside a Bash tool call
    const order = calls.map((c) => (c.argv[0] === "hook" ? c.argv[1] : "REPORT"));
    expect(order).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PreToolUse",
      "REPORT",
      "PostToolUseFailure",
      "Stop",
    ]);
    const pre = d.hooks()[4].payload;
    expect(pre.tool_name).toBe("Bash");
    expect(pre.tool_input.command).toBe("yard task report --status completed --summary 'Added out.txt'");
    expect(d.text()).toContain("fake yard: report received");
    expect(d.text()).toContain("exit 5");
    expect(d.text()).toContain("● Got it: it's done");
    expect(stop.payload.last_assistant_message).toContain("exit 5");
  });

  it("report with exit 0 posts PostToolUse; noreport just ends the turn", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.turn("report failed tests are red");
    expect(d.calls().find((c) => c.argv[0] === "task")?.argv).toEqual([
      "task",
      "report",
      "--status",
      "failed",
      "--summary",
      "tests are red",
    ]);
    expect(d.events().slice(-2)).toEqual(["PostToolUse", "Stop"]);
    expect(d.text()).toContain("exit 0");
    await d.turn("noreport");
    expect(d.calls().filter((c) => c.argv[0] === "task")).toHaveLength(1);
    expect(d.events().slice(-2)).toEqual(["UserPromptSubmit", "Stop"]);
  });

  it("commit runs git add -A + git commit (Bash hooks), with the demo identity when git has none", async (t) => {
    const env = gitEnv(t);
    const d = new Demo(t, { env });
    initRepo(d.cwd, env);
    await d.waitReady();
    const stop = await d.turn("write a.txt hello; commit add a");

    expect(git(d.cwd, env, "rev-list", "--count", "HEAD")).toBe("2");
    expect(git(d.cwd, env, "log", "-1", "--format=%s")).toBe("add a");
    expect(git(d.cwd, env, "log", "-1", "--format=%an <%ae>")).toBe("Demo Agent <demo-agent@localhost>");
    expect(git(d.cwd, env, "rev-parse", "--abbrev-ref", "HEAD")).toBe("main");
    expect(git(d.cwd, env, "show", "HEAD:a.txt")).toBe("hello");
    expect(git(d.cwd, env, "status", "--porcelain")).toBe("");
    // no identity was written into the repo's config
    expect(() => git(d.cwd, env, "config", "user.name")).toThrow();

    expect(d.events()).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PreToolUse",
      "PostToolUse",
      "Stop",
    ]);
    const [pre, post] = d.hooks().slice(4, 6);
    expect(pre.payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "git add -A && git commit -m 'add a'" },
    });
    expect(post.payload).toMatchObject({
      tool_name: "Bash",
      tool_input: pre.payload.tool_input,
      tool_use_id: pre.payload.tool_use_id,
    });

    const sha = git(d.cwd, env, "rev-parse", "--short", "HEAD");
    await d.waitReady();
    expect(d.text()).toContain("● Bash(git commit)");
    expect(d.text()).toContain(`  ⎿  Committed ${sha}: add a`);
    expect(stop.payload.last_assistant_message).toBe(`Wrote a.txt. Committed ${sha}: add a.`);
  });

  it("commit keeps a configured identity; 'nothing to commit' and a non-repo are shown and the turn goes on", async (t) => {
    const env = gitEnv(t);
    const d = new Demo(t, { env });
    initRepo(d.cwd, env);
    git(d.cwd, env, "config", "user.name", "Repo Owner");
    git(d.cwd, env, "config", "user.email", "owner@example.com");
    await d.waitReady();
    const stop = await d.turn("write b.txt x; commit first; commit again; print carried on");
    expect(git(d.cwd, env, "log", "--format=%s|%an <%ae>")).toBe(
      "first|Repo Owner <owner@example.com>\ninitial|Setup <setup@localhost>",
    );
    expect(d.events().slice(-5)).toEqual(["PreToolUse", "PostToolUse", "PreToolUse", "PostToolUseFailure", "Stop"]);
    const failure = d.hooks().find((h) => h.event === "PostToolUseFailure");
    expect(failure?.payload).toMatchObject({
      tool_name: "Bash",
      tool_input: { command: "git add -A && git commit -m again" },
    });
    expect(failure?.payload.error).toMatch(/^nothing to commit.*\(exit code 1\)$/);
    await d.waitReady();
    expect(d.text()).toMatch(/⎿ {2}nothing to commit, working tree clean/);
    expect(d.lines()).toContain("carried on");
    expect(stop.payload.last_assistant_message).toContain("Did not commit (nothing to commit");
    expect(stop.payload.last_assistant_message).toContain("Printed 1 line.");

    // outside any repository: git's error, no crash
    const tmp = os.tmpdir();
    const p = new Demo(t, { env: gitEnv(t, [tmp, fs.realpathSync(tmp)].join(path.delimiter)) });
    await p.waitReady();
    const s2 = await p.turn("commit nowhere; print still here");
    expect(p.text()).toMatch(/⎿ {2}fatal: not a git repository/);
    expect(p.lines()).toContain("still here");
    expect(s2.payload.last_assistant_message).toContain("Did not commit (fatal: not a git repository");
    expect(p.exit).toBeNull();
  });

  it("lines <n> prints numbered lines that scroll into the scrollback", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.turn("lines 50");
    await d.waitReady();
    const lines = d.lines();
    const numbered = lines.filter((l) => /^line \d+$/.test(l));
    expect(numbered).toEqual(Array.from({ length: 50 }, (_, i) => `line ${i + 1}`));
    expect(d.term.buffer.active.baseY).toBeGreaterThan(0); // it really scrolled
    // exactly one bottom region, at the bottom
    expect(lines.filter((l) => /^─+$/.test(l))).toHaveLength(1);
    expect(lines.slice(-3, -1)).toEqual([expect.stringMatching(/^─+$/), ">  "]);
    expect(lines[lines.length - 1]).toContain("ready");
  });

  it("keeps hooks in order when yard is slow, and says ready only after Stop is posted", async (t) => {
    const d = new Demo(t, { env: { FAKE_YARD_DELAY_UserPromptSubmit: "400" } });
    await d.waitReady();
    // Look at the screen the moment b.txt's result line has been parsed: not when the file
    // shows up on disk (the rendering lags the files the agent writes), nor at the next poll.
    // The agent draws that line in the same write as the status line under it, and an empty
    // write's callback runs right after the PTY chunk queued before it has been parsed. The
    // status then must not say ready: the slow UserPromptSubmit hook (and so Stop) is still
    // outstanding.
    let atB: { status: string; events: string[] } | undefined;
    const watch = d.proc.onData(() =>
      d.term.write("", () => {
        if (!atB && d.text().includes("Wrote 1 line to b.txt")) atB = { status: d.status(), events: d.events() };
      }),
    );
    await d.submit("write a.txt 1; write b.txt 2");
    const seen = await d.wait("b.txt's result on screen", () => atB);
    watch.dispose();
    expect(seen.status).not.toContain("ready");
    expect(seen.events).not.toContain("Stop");
    await d.waitReady();
    expect(d.events()).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "PreToolUse",
      "PostToolUse",
      "Stop",
    ]);
  });

  it("animates a spinner on the status line while working (sleep)", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.submit("sleep 1500");
    await waitFor("working status", () => d.status().includes("working"));
    const frames = new Set<string>();
    await waitFor("three spinner frames", () => {
      const m = /^([⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]) working/.exec(d.status());
      if (m) frames.add(m[1]);
      return frames.size >= 3;
    });
    // typing while working lands in the composer
    await d.type("abc");
    expect(d.status()).toContain("working");
    await d.waitHook("Stop");
    await d.waitReady();
    expect(d.input()).toBe("> abc");
  });

  it("Ctrl-D on empty input exits 0 after SessionEnd and turns bracketed paste off", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.type("x");
    d.proc.write("\x04"); // not empty: ignored
    d.proc.write("\x7f");
    await waitFor("composer empty", () => d.input() === "> ");
    d.proc.write("\x04");
    const exit = await d.waitExit();
    expect(exit.exitCode).toBe(0);
    expect(d.events()).toEqual(["SessionStart", "SessionEnd"]);
    expect(d.hooks()[1].payload.reason).toBe("prompt_input_exit");
    expect(d.raw).toContain("\x1b[?2004l");
  });

  it("Ctrl-C twice exits 0; once only clears the composer", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.type("some text");
    d.proc.write("\x03");
    await waitFor("composer cleared + hint", () => d.input() === "> " && d.status().includes("Ctrl-C again"));
    expect(d.exit).toBeNull();
    d.proc.write("\x03");
    expect((await d.waitExit()).exitCode).toBe(0);
    expect(d.events()).toEqual(["SessionStart", "SessionEnd"]);
  });

  it("SIGHUP (the pane's PTY closing) posts SessionEnd and exits 129", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    d.proc.kill("SIGHUP");
    expect((await d.waitExit()).exitCode).toBe(129);
    await d.waitHook("SessionEnd"); // posted by a detached process: it survives the hang-up
    expect(d.hooks()[1].payload.reason).toBe("other");
  });

  it("--prompt submits a first prompt once ready", async (t) => {
    const d = new Demo(t, { args: ["--name", "w2", "--prompt", "print from argv"] });
    const stop = await d.waitHook("Stop");
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "Stop"]);
    expect(d.hooks()[1].payload.prompt).toBe("print from argv");
    expect(stop.payload.last_assistant_message).toBe("Printed 1 line.");
    await d.waitText(/^from argv$/m);
  });

  it("exit ends the session cleanly after SessionEnd, without Stop", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.submit("print bye; exit; print never");
    expect((await d.waitExit()).exitCode).toBe(0);
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "SessionEnd"]);
    expect(d.lines()).toContain("bye");
    expect(d.lines()).not.toContain("never");
  });

  it("echoes free text, lists directives on help, warns on a malformed directive", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    const stop = await d.turn("please look around");
    expect(d.text()).toContain("● Got it: please look around");
    expect(stop.payload.last_assistant_message).toBe("Got it: please look around");
    await d.turn("help");
    expect(d.text()).toContain("write <path> <text...>");
    expect(d.text()).toContain("crash <code>");
    const s3 = await d.turn("sleep soon");
    expect(d.text()).toContain("⚠ sleep needs <ms>");
    expect(s3.payload.last_assistant_message).toContain("Skipped an invalid directive");
  });

  it("untracked creates a new file with fixed content", async (t) => {
    const d = new Demo(t);
    await d.waitReady();
    await d.turn("untracked sub/dir/new.txt");
    expect(fs.readFileSync(path.join(d.cwd, "sub/dir/new.txt"), "utf8")).toBe(
      "This file was created by the Switchyard demo agent.\n",
    );
    expect(d.hooks().find((h) => h.event === "PreToolUse")?.payload.tool_name).toBe("Write");
  });

  it("skips hooks (with one dim note) when YARD_PANE is unset or yard is missing", async (t) => {
    const a = new Demo(t, { env: { YARD_PANE: undefined } });
    const b = new Demo(t, { env: { YARD_BIN: "/nonexistent/yard" } });
    await a.waitReady();
    await b.waitReady();
    await a.submit("write a.txt 1");
    await b.submit("write b.txt 2");
    await a.waitText("Wrote a.txt.");
    await b.waitText("Wrote b.txt.");
    await a.waitReady();
    await b.waitReady();
    expect(a.text()).toContain("hooks off: YARD_PANE is not set");
    expect(b.text()).toContain("hooks off: '/nonexistent/yard' not found");
    expect(a.calls()).toEqual([]);
    expect(b.calls()).toEqual([]);
    expect(fs.readFileSync(path.join(a.cwd, "a.txt"), "utf8")).toBe("1\n");
  });

  it("posts hooks in-process, in order, when the pane gives the server's address (no yard process)", async (t) => {
    const posts: {
      auth?: string;
      path?: string;
      body: { paneId: string; event: string; payload: Record<string, unknown> };
    }[] = [];
    let connections = 0;
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        posts.push({ auth: req.headers.authorization, path: req.url, body: JSON.parse(body) });
        res.setHeader("content-type", "application/json");
        res.end("{}");
      });
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    t.onTestFinished(() => void server.close());
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const d = new Demo(t, { env: { YARD_URL: url, YARD_TOKEN: "pane-secret" } });
    await d.waitReady();
    await d.submit("write a.txt 1");
    await d.wait("Stop posted", () => posts.some((p) => p.body.event === "Stop"));
    expect(posts.map((p) => p.body.event)).toEqual([
      "SessionStart",
      "UserPromptSubmit",
      "PreToolUse",
      "PostToolUse",
      "Stop",
    ]);
    expect(
      posts.every(
        (p) => p.auth === "Bearer pane-secret" && p.path === "/api/trpc/hooks.post" && p.body.paneId === "pane-test-1",
      ),
    ).toBe(true);
    expect(posts[2]!.body.payload).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Write", cwd: d.cwd });
    expect(d.calls()).toEqual([]); // no `yard hook` ran
    // A connection per hook: an idle keep-alive socket reused as the server closes it would fail.
    expect(connections).toBe(posts.length);
    expect(fs.readFileSync(path.join(d.cwd, "a.txt"), "utf8")).toBe("1\n");
  });

  it("DEMO_HOOKS=command runs `yard hook` even when the pane gives the server's address", async (t) => {
    const d = new Demo(t, {
      env: { YARD_URL: "http://127.0.0.1:9", YARD_TOKEN: "pane-secret", DEMO_HOOKS: "command" },
    });
    await d.waitReady();
    expect(d.events()).toEqual(["SessionStart"]);
  });

  it("an http hook that cannot be posted is one dim line, and the turn goes on", async (t) => {
    const d = new Demo(t, { env: { YARD_URL: "http://127.0.0.1:9", YARD_TOKEN: "pane-secret" } });
    await d.waitReady();
    await d.submit("write b.txt 2");
    await d.waitText("Wrote b.txt.");
    await d.waitText(/hook SessionStart: server not reachable at http:\/\/127\.0\.0\.1:9/);
    expect(d.calls()).toEqual([]);
  });

  it("uses YARD_BIN when set", async (t) => {
    const other = tempDir(t, "yard-demo-bin-");
    writeFakeYard(other, "my-yard");
    const d = new Demo(t, {
      env: {
        YARD_BIN: path.join(other, "my-yard"),
        PATH: [path.dirname(process.execPath), "/usr/bin", "/bin"].join(path.delimiter),
      },
    });
    await d.waitReady();
    expect(d.events()).toEqual(["SessionStart"]);
  });

  it("waits DEMO_START_DELAY_MS before SessionStart and ready; a prompt typed meanwhile runs after", async (t) => {
    const d = new Demo(t, { env: { DEMO_START_DELAY_MS: "700" } });
    await waitFor("starting status", () => d.status().includes("starting"));
    await d.submit("print early bird");
    await waitFor("queued", () => d.status().includes("1 queued"));
    expect(d.events()).toEqual([]);
    await d.waitHook("Stop");
    await d.turnShown();
    expect(d.events()).toEqual(["SessionStart", "UserPromptSubmit", "Stop"]);
    expect(d.lines()).toContain("early bird");
  });

  it("redraws the bottom region at the new width on resize", async (t) => {
    const d = new Demo(t, { cols: 100 });
    await d.waitReady();
    await d.turn("print above the region");
    await d.waitReady();
    await d.type("draft");
    for (const c of [60, 37]) {
      d.term.resize(c, ROWS);
      d.proc.resize(c, ROWS);
      await waitFor(`separator at width ${c}`, () => d.lines().some((l) => l === "─".repeat(c - 1)));
    }
    // grow again: no reflow garbage either
    d.term.resize(90, ROWS);
    d.proc.resize(90, ROWS);
    await waitFor("separator at width 90", () => d.lines().some((l) => l === "─".repeat(89)));
    await d.type("!", "> draft!");
    const lines = d.lines();
    expect(lines.filter((l) => l.includes("─"))).toEqual(["─".repeat(89)]);
    expect(lines.slice(-3)).toEqual(["─".repeat(89), "> draft! ", expect.stringContaining("ready")]);
    expect(lines).toContain("above the region");
  });
});
