// What a worker writes cannot drive the person's terminal: a real task whose agent (a small
// script run in the task's pane, using the pane's own `yard`) reports a summary full of terminal
// controls (OSC 52 clipboard write, CSI cursor moves and screen clears, an 8-bit CSI, BEL), asks a
// question made of the same, and leaves a file whose name and content carry ESC. `yard task
// get | diff | thread | list | events | rounds` print none of those bytes raw in human output and
// show them visibly; `--json` keeps the exact original strings.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminClient } from "./helpers/client";
import { scratch } from "./helpers/scratch";
import { startTestServer, type TestServer, yard } from "./helpers/server";

vi.setConfig({ testTimeout: 90_000 });

const ESC = "\x1b";
const OSC52 = `${ESC}]52;c;cHduZWQ=\x07`; // puts "pwned" on the clipboard
const HIDE = `${ESC}[1A${ESC}[2K`; // cursor up one line, erase it
const SUMMARY = `all good ${OSC52}${HIDE}${ESC}[2J${ESC}[H\u009b31m red \u202eevil\nsecond line\tafter a tab`;
const QUESTION = `may I? ${ESC}]0;owned title\x07${ESC}[8m hidden`;
const FILE = `evil${ESC}[31mname.txt`;
const CONTENT = `line ${ESC}]52;c;Y2xpcA==\x07 here\n`;
/** Raw terminal controls: C0 but tab and newline, DEL, C1, bidi overrides. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

let server: TestServer;
let api: ReturnType<typeof adminClient>;
let taskId: string;
const dirs = scratch("yard-cli-output-");

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  // The agent: writes the file, asks its question and reports, all with the pane's own yard.
  const agent = path.join(dirs.tmp(), "hostile-agent.mjs");
  writeFileSync(
    agent,
    `import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
const s = ${JSON.stringify({ SUMMARY, QUESTION, FILE, CONTENT })};
writeFileSync(s.FILE, s.CONTENT);
execFileSync("yard", ["task", "ask", s.QUESTION], { stdio: "inherit" });
execFileSync("yard", ["task", "report", "--status", "completed", "--summary", s.SUMMARY, "--changed-file", s.FILE], { stdio: "inherit" });
setInterval(() => {}, 1000);
`,
  );
  const started = await api.tasks.start.mutate({
    repoPath: dirs.repo(),
    objective: "report",
    title: `hostile ${ESC}[2J title`,
    argv: [process.execPath, agent],
    stallMs: 300,
  });
  taskId = started.task.id;
  const t = (await api.tasks.wait.query({ id: taskId, until: "completed", timeoutMs: 60_000 })).tasks[0]!;
  expect(t.state).toBe("completed");
});
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

const human = async (args: string[]) => {
  const r = await yard(server, args);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};
const json = async (args: string[]) => {
  const r = await yard(server, ["--json", ...args]);
  expect(r.code, r.stderr).toBe(0);
  return r.json;
};

function expectSafe(out: string) {
  expect(out).not.toMatch(RAW_CONTROL);
  expect(out).not.toContain(ESC);
  expect(out).not.toContain("\x07");
}

describe("agent-written text in the CLI's human output", () => {
  it("task get: the summary's controls are shown, not obeyed; --json keeps the exact string", async () => {
    const out = await human(["task", "get", taskId]);
    expectSafe(out);
    expect(out).toContain("all good \\x1b]52;c;cHduZWQ=\\x07\\x1b[1A\\x1b[2K\\x1b[2J\\x1b[H\\x9b31m red \\u202eevil");
    // Layout survives: the summary's own newline and tab are still a newline and a tab.
    expect(out).toContain("\n  second line\tafter a tab");
    expect(out).toContain("hostile \\x1b[2J title");
    expect((await json(["task", "get", taskId])).task.result.summary).toBe(SUMMARY);
  });

  it("task diff: file names and file content carry no raw ESC; --json is exact", async () => {
    const out = await human(["task", "diff", taskId]);
    expectSafe(out);
    expect(out).toContain("line \\x1b]52;c;Y2xpcA==\\x07 here");
    const stat = await human(["task", "diff", taskId, "--stat"]);
    expectSafe(stat);
    expect(stat).toContain("evil\\x1b[31mname.txt");
    const d = await json(["task", "diff", taskId]);
    expect(d.files.map((f: { path: string }) => f.path)).toContain(FILE);
    expect(d.diff).toContain(CONTENT.trimEnd());
  });

  it("task thread: the question shows visibly; --json is exact", async () => {
    const out = await human(["task", "thread", taskId]);
    expectSafe(out);
    expect(out).toContain("may I? \\x1b]0;owned title\\x07\\x1b[8m hidden");
    expect((await json(["task", "thread", taskId])).messages[0].body).toBe(QUESTION);
  });

  it("task list, rounds, events and the event journal: nothing raw either", async () => {
    for (const args of [
      ["task", "list"],
      ["task", "rounds", taskId],
      ["task", "events", taskId],
      ["events", "--task", taskId],
      ["task", "wait", taskId, "--until", "completed"],
    ]) {
      const out = await human(args);
      expectSafe(out);
    }
    // A title in a table stays on its row: its controls are written out, its columns line up.
    const list = await human(["task", "list"]);
    expect(list.split("\n").find((l) => l.startsWith(taskId))).toContain("hostile \\x1b[2J title");
    expect((await json(["task", "list"])).tasks.find((t: { id: string }) => t.id === taskId).title).toBe(
      `hostile ${ESC}[2J title`,
    );
  });
});
