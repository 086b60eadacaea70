// Insights from a real board: tasks merged, discarded and failed, started by the owner and by a
// person; `yard insights --json` gives the numbers the Insights page charts, filtered by person
// and agent, and refuses a bad filter.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { startTestServer, type TestServer, yard } from "./helpers/server";

let server: TestServer;
let api: ReturnType<typeof adminClient>;
let repo: string;

const script = (status: string) =>
  `echo x > f$$.txt && git add -A && git -c user.name=A -c user.email=a@example.com commit -qm x && yard task report --status ${status} --summary s >/dev/null; exec sleep 600`;

beforeAll(async () => {
  server = await startTestServer();
  api = adminClient(server);
  repo = makeRepo();
  const projectId = (await api.projects.add.mutate({ path: repo, name: "ins" })).id;
  await api.people.add.mutate({ name: "mia", role: "member" });
  const mia = clientWithToken(server, (await api.people.createToken.mutate({ user: "mia" })).token);
  const start = async (who: typeof api, status: string) => {
    const { task } = await who.tasks.start.mutate({ projectId, objective: "x", argv: ["sh", "-c", script(status)] });
    await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
    return task.id;
  };
  const merged = await start(api, "completed");
  await api.tasks.finish.mutate({ id: merged, merge: {} });
  const miaMerged = await start(mia, "completed");
  await api.tasks.finish.mutate({ id: miaMerged, merge: {} });
  const discarded = await start(api, "completed");
  await api.tasks.finish.mutate({ id: discarded, discard: { force: true } });
  await start(api, "failed");
}, 120_000);

afterAll(async () => {
  await server?.dispose();
  rmSync(repo, { recursive: true, force: true });
});

describe("insights", () => {
  it("counts today's tasks, merges, rounds, the agent's success rate and the time waited on people", async () => {
    const r = await yard(server, ["--json", "insights", "--days", "7"]);
    expect(r.code, r.stderr).toBe(0);
    const doc = r.json as {
      perDay: Array<{ day: string; started: number; merged: number }>;
      startToMerge: { merged: number; medianMs: number; p90Ms: number };
      rounds: { finished: number; mean: number };
      agents: Array<{
        agent: string;
        started: number;
        finished: number;
        merged: number;
        failed: number;
        successRate: number;
      }>;
      waitingOnPeople: { tasks: number; totalMs: number };
      filter: { days: number };
    };
    expect(doc.perDay).toHaveLength(7);
    expect(doc.perDay.at(-1)).toEqual({ day: new Date().toISOString().slice(0, 10), started: 4, merged: 2 });
    expect(doc.startToMerge.merged).toBe(2);
    expect(doc.startToMerge.medianMs).toBeGreaterThan(0);
    expect(doc.startToMerge.p90Ms).toBeGreaterThanOrEqual(doc.startToMerge.medianMs);
    expect(doc.rounds).toMatchObject({ finished: 3, mean: 1 });
    expect(doc.agents).toEqual([
      expect.objectContaining({ agent: "custom", started: 4, finished: 3, merged: 2, failed: 1, successRate: 2 / 3 }),
    ]);
    // The three that completed waited (for a merge or a discard) until they were finished.
    expect(doc.waitingOnPeople.tasks).toBe(3);
    expect(doc.filter.days).toBe(7);
    const text = await yard(server, ["insights"]);
    expect(text.stdout).toContain("Last 30 day(s): 4 started, 2 merged");
    expect(text.stdout).toMatch(/custom\s+4\s+3\s+2\s+1\s+67%/);
  });

  it("filters by person and by agent, and refuses a bad filter", async () => {
    const mias = await api.insights.get.query({ person: "mia" });
    expect(mias.agents).toEqual([expect.objectContaining({ agent: "custom", started: 1, merged: 1, successRate: 1 })]);
    expect((await api.insights.get.query({ agent: "demo" })).agents).toEqual([]);
    expect(await errorOf(() => api.insights.get.query({ days: 0 }))).toMatchObject({ code: "BAD_PARAMS" });
    const bad = await yard(server, ["insights", "--days", "400"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--days must be a whole number from 1 to 365");
  });
});
