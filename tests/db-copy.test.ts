// `yard db copy --to URL`: a board that ran on SQLite (a task run, reviewed and merged; a person
// with a token) moves into PostgreSQL with every row: the report's counts and per-table checksums
// match, a server started on the copy shows the same board and goes on numbering the journal after
// it, and the person's token still works. Refused with nothing written: a running server, a bad
// URL, a database that already holds a board; a row PostgreSQL cannot take rolls the whole copy back.
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, clientWithToken } from "./helpers/client";
import { makeRepo, removeRepo } from "./helpers/git";
import { createPgDatabase, dropPgDatabase, PG_URL } from "./helpers/pg";
import { startDemoTask, startTestServer, type TestServer, yard } from "./helpers/server";

describe.runIf(PG_URL)("yard db copy", () => {
  let server: TestServer;
  let repo: string;
  let repo2: string;
  let taskId: string;
  let personToken: string;
  const made: string[] = [];
  const fresh = async (empty = true) => {
    const url = await createPgDatabase({ empty });
    made.push(url);
    return url;
  };
  const rows = async (url: string, table: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      return Number((await c.query(`SELECT COUNT(*) AS n FROM "${table}"`)).rows[0].n);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    server = await startTestServer();
    repo = makeRepo("yard-db-copy-");
    repo2 = makeRepo("yard-db-copy-more-");
  });
  afterAll(async () => {
    await server?.dispose();
    await Promise.all(made.map(dropPgDatabase));
    for (const r of [repo, repo2]) if (r) removeRepo(r);
  });

  async function ok(s: TestServer, args: string[]): Promise<any> {
    const r = await yard(s, ["--json", ...args]);
    expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  }

  it("refuses while the server runs, and a URL that is not PostgreSQL's, writing nothing", async () => {
    const project = (await ok(server, ["project", "add", repo])).project;
    const started = await startDemoTask(server, {
      project: project.id,
      title: "Copied over",
      objective: "write notes.txt kept in the copy\ncommit add notes\nreport completed notes written",
    });
    taskId = started.task.id;
    await ok(server, ["task", "wait", taskId, "--until", "completed", "--timeout-ms", "60000"]);
    await ok(server, ["task", "review", taskId, "--approve", "--summary", "fine"]);
    await ok(server, ["task", "finish", taskId, "--merge"]);
    await ok(server, ["user", "add", "ana", "--role", "reviewer"]);
    personToken = (await ok(server, ["token", "create", "--user", "ana", "--name", "laptop"])).token;

    const url = await fresh();
    const running = await yard(server, ["--json", "db", "copy", "--to", url]);
    expect(running.code).toBe(1);
    expect(running.json.error).toMatchObject({ code: "CONFLICT" });
    expect(running.json.error.message).toMatch(/server is running.*yard stop/);
    const bad = await yard(server, ["--json", "db", "copy", "--to", "mysql://x@y/z"]);
    expect(bad.json.error).toMatchObject({ code: "BAD_PARAMS" });
    // Nothing was written: not even the schema.
    await expect(rows(url, "Task")).rejects.toThrow(/does not exist/);
  }, 120_000);

  it("copies every row with matching counts and checksums; a server on the copy shows the same board", async () => {
    await server.stop();
    const url = await fresh();
    const r = await yard(server, ["--json", "db", "copy", "--to", url]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = r.json;
    expect(report.ok).toBe(true);
    expect(report.to).toBe(url);
    const byTable = new Map<string, any>(report.tables.map((t: any) => [t.table, t]));
    for (const t of report.tables) {
      expect(t.targetRows, t.table).toBe(t.rows);
      expect(t.targetChecksum, t.table).toBe(t.sourceChecksum);
    }
    // What the SQLite board holds, table by table, is what PostgreSQL holds now.
    const src = new Database(`${server.home}/yard.db`, { readonly: true });
    for (const table of ["Task", "Event", "Pane", "Review", "TaskRound", "User", "UserToken", "Project"]) {
      const n = (src.prepare(`SELECT COUNT(*) AS n FROM "${table}"`).get() as { n: number }).n;
      expect(n, table).toBeGreaterThan(0);
      expect(byTable.get(table)?.rows, table).toBe(n);
      expect(await rows(url, table), table).toBe(n);
    }
    const lastSeq = (src.prepare('SELECT MAX(seq) AS s FROM "Event"').get() as { s: number }).s;
    src.close();

    const onPg = await startTestServer({ home: server.home, env: { DATABASE_URL: url } });
    try {
      const task = await adminClient(onPg).tasks.get.query({ id: taskId });
      expect(task).toMatchObject({ title: "Copied over", state: "completed", disposition: "merged" });
      expect((await clientWithToken(onPg, personToken).whoami.query()).person).toEqual({
        name: "ana",
        role: "reviewer",
      });
      // The journal goes on after the copied events.
      await ok(onPg, ["project", "add", repo2]);
      const head = (await ok(onPg, ["events", "--since", String(lastSeq)])).events as Array<{ seq: number }>;
      expect(head.length).toBeGreaterThan(0);
      expect(Math.min(...head.map((e) => e.seq))).toBeGreaterThan(lastSeq);
    } finally {
      await onPg.stop(); // the data dir stays: the next test copies it again
    }

    // A second copy into the same database is refused, and changes nothing there.
    const before = await rows(url, "Event");
    const again = await yard(server, ["--json", "db", "copy", "--to", url]);
    expect(again.json.error, JSON.stringify(again.json)).toMatchObject({ code: "CONFLICT" });
    expect(again.json.error.message).toMatch(/already holds a board/);
    expect(await rows(url, "Event")).toBe(before);
  }, 120_000);

  it("rolls the whole copy back when PostgreSQL refuses a row", async () => {
    // A value SQLite keeps and PostgreSQL's INTEGER cannot: the copy fails part-way through.
    const file = `${server.home}/yard.db`;
    const w = new Database(file);
    w.prepare('UPDATE "Task" SET "round" = ? WHERE "id" = ?').run(2 ** 40, taskId);
    w.close();
    const url = await fresh();
    const r = await yard(server, ["--json", "db", "copy", "--to", url]);
    expect(r.code).toBe(1);
    expect(r.json.error.message).toMatch(/out of range/);
    for (const table of ["Project", "Task", "Event"]) expect(await rows(url, table), table).toBe(0);
  }, 60_000);
});
