// Task templates through the real CLI and server: add from flags and from a task (flags win over
// the task's fields), list per project, names unique per project, remove by id or by name, and a
// removed project's templates go with it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitState } from "./helpers/agent-tasks";
import { adminClient } from "./helpers/client";
import { scratch } from "./helpers/scratch";
import { startTestServer, type TestServer, yard } from "./helpers/server";

let server: TestServer;
const dirs = scratch("yard-tpl-");
let a: string;
let b: string;

beforeAll(async () => {
  server = await startTestServer();
  const api = adminClient(server);
  a = (await api.projects.add.mutate({ path: dirs.repo(), name: "alpha" })).id;
  b = (await api.projects.add.mutate({ path: dirs.repo(), name: "beta" })).id;
}, 90_000);
afterAll(async () => {
  await server?.dispose();
  dirs.cleanup();
});

const y = (args: string[]) => yard(server, ["--json", ...args]);

describe("yard template add|list|remove", () => {
  it("saves a contract from flags, lists it per project, refuses a second of the same name", async () => {
    const r = await y([
      "template",
      "add",
      "--project",
      a,
      "--name",
      "bugfix",
      "--title",
      "Fix a bug",
      "--objective",
      "Find the bug and fix it",
      "--constraint",
      "no new dependencies",
      "--constraint",
      "keep the API",
      "--accept",
      "tests pass",
      "--output-format",
      "a short summary",
      "--label",
      "bug",
      "--agent",
      "demo",
    ]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.template).toMatchObject({
      projectId: a,
      name: "bugfix",
      title: "Fix a bug",
      objective: "Find the bug and fix it",
      constraints: ["no new dependencies", "keep the API"],
      acceptanceCriteria: ["tests pass"],
      outputFormat: "a short summary",
      label: "bug",
      agent: "demo",
    });
    expect(r.json.template.id).toMatch(/^tpl/);

    const again = await y(["template", "add", "--project", a, "--name", "bugfix", "--objective", "x"]);
    expect(again.code).toBe(1);
    expect(again.json.error).toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/bugfix/) });
    // The same name in another project is another template.
    expect((await y(["template", "add", "--project", b, "--name", "bugfix", "--objective", "x"])).code).toBe(0);

    const listA = await y(["template", "list", "--project", a]);
    expect(listA.json.templates.map((t: any) => t.name)).toEqual(["bugfix"]);
    expect((await y(["template", "list"])).json.templates).toHaveLength(2);
    const text = await yard(server, ["template", "list", "--project", a, "--long"]);
    expect(text.stdout).toContain("constraint: keep the API");
  });

  it("refuses what it cannot save: no objective, no project, an unknown agent or project", async () => {
    const none = await y(["template", "add", "--project", a, "--name", "empty"]);
    expect(none.json.error).toMatchObject({ code: "BAD_PARAMS", message: expect.stringMatching(/objective/) });
    const noProject = await y(["template", "add", "--objective", "x"]);
    expect(noProject.json.error).toMatchObject({ code: "BAD_PARAMS", message: expect.stringMatching(/project/) });
    const agent = await y(["template", "add", "--project", a, "--objective", "x", "--agent", "nosuch"]);
    expect(agent.json.error).toMatchObject({ code: "NOT_FOUND", message: expect.stringMatching(/nosuch/) });
    const project = await y(["template", "add", "--project", "prjnope", "--objective", "x"]);
    expect(project.json.error.code).toBe("NOT_FOUND");
    expect((await y(["template", "list", "--project", a])).json.templates).toHaveLength(1);
  });

  it("copies a task's contract with --from-task; flags given win", async () => {
    const api = adminClient(server);
    const { task } = await api.tasks.start.mutate({
      projectId: a,
      agent: "demo",
      title: "Write the notes",
      objective: "write notes.txt hi\nreport completed notes",
      constraints: ["only notes.txt"],
      acceptanceCriteria: ["notes.txt exists"],
      outputFormat: "one line",
      label: "docs",
    });
    await waitState(api, task.id, "completed");
    const r = await y(["template", "add", "--from-task", task.id, "--label", "chore"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.template).toMatchObject({
      projectId: a,
      name: "Write the notes",
      title: "Write the notes",
      objective: "write notes.txt hi\nreport completed notes",
      constraints: ["only notes.txt"],
      acceptanceCriteria: ["notes.txt exists"],
      outputFormat: "one line",
      label: "chore",
      agent: "demo",
    });
    // Into another project, under another name.
    const other = await y(["template", "add", "--from-task", task.id, "--project", b, "--name", "notes"]);
    expect(other.json.template).toMatchObject({ projectId: b, name: "notes", label: "docs" });
  }, 60_000);

  it("removes by id or by name; unknown ones are NOT_FOUND; a removed project's templates go with it", async () => {
    const list = (await y(["template", "list", "--project", a])).json.templates as any[];
    const bugfix = list.find((t) => t.name === "bugfix");
    const byId = await y(["template", "remove", bugfix.id]);
    expect(byId.json.template).toMatchObject({ id: bugfix.id, name: "bugfix" });
    const byName = await y(["template", "remove", "Write the notes", "--project", a]);
    expect(byName.json.template.name).toBe("Write the notes");
    expect((await y(["template", "list", "--project", a])).json.templates).toEqual([]);
    expect((await y(["template", "remove", bugfix.id])).json.error.code).toBe("NOT_FOUND");

    expect((await y(["template", "list", "--project", b])).json.templates).toHaveLength(2);
    expect((await y(["project", "remove", b])).code).toBe(0);
    expect((await y(["template", "list"])).json.templates).toEqual([]);
  });
});
