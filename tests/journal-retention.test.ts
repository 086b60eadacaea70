// The journal stays bounded, end to end against the real server: a pane's hooks carrying 200 KB
// of agent text store at most the caps (the journal's copy, the task's evidence), an oversized
// name in a hook is refused, and a data dir whose journal is over its limits (by age and by
// count) is pruned at start-up, the newest events kept, with a reader from seq 0 still served
// and told through which seq events went.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LIMITS } from "../server/wire/common";
import { openDatabase } from "../server/db";
import { adminClient } from "./helpers/client";
import { seedHome } from "./helpers/db-template";
import { scratch } from "./helpers/scratch";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";
import { startRecordingWorker } from "./helpers/worker";

vi.setConfig({ testTimeout: 90_000 });

const dirs = scratch("yard-journal-");
const servers: TestServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.dispose()));
  dirs.cleanup();
});

describe("hook text is capped before it is stored", () => {
  let server: TestServer;
  let api: ReturnType<typeof adminClient>;
  beforeAll(async () => {
    server = await startTestServer();
    servers.push(server);
    api = adminClient(server);
  });

  it("a Stop hook with a 200 KB message: the journal and the task keep at most their caps", async () => {
    const { task, pane, env } = await startRecordingWorker(api, dirs.repo());
    await api.tasks.wait.query({ id: task.id, until: "input_required", timeoutMs: 30_000 });
    const hook = (event: string, payload: Record<string, unknown>) =>
      yard(server, ["hook", event], {
        env,
        input: JSON.stringify({ hook_event_name: event, session_id: "s1", ...payload }),
      });
    expect((await hook("UserPromptSubmit", {})).stderr).toBe("");
    await api.tasks.wait.query({ id: task.id, until: "working", timeoutMs: 30_000 });
    const note = "a".repeat(200 * 1024);
    expect((await hook("Stop", { last_assistant_message: note })).stderr).toBe("");

    const done = await waitFor(
      async () =>
        (await api.events.list.query({ paneId: pane.id, type: "pane.lifecycle" })).events.find(
          (e) => e.payload.cause === "hook:Stop",
        ),
      { what: "the Stop transition" },
    );
    const stored = done.payload.lastMessage as string;
    expect(stored.length).toBeLessThan(note.length);
    expect(stored.length).toBeLessThanOrEqual(LIMITS.eventString);
    expect(stored).toMatch(/^a+…\[cut \d+ characters\]$/);
    const t = await waitFor(
      async () => {
        const t = await api.tasks.get.query({ id: task.id });
        return t.state === "input_required" && (t.evidence as { last_message?: string } | null)?.last_message
          ? t
          : null;
      },
      { what: "the task's evidence" },
    );
    const quoted = (t.evidence as { last_message: string }).last_message;
    expect(quoted.length).toBeLessThan(note.length);
    expect(quoted.length).toBeLessThanOrEqual(LIMITS.hookMessage);
    expect(quoted).toMatch(/…\[cut \d+ characters\]$/);
    // No stored event of this task or pane is over the payload cap.
    for (const q of [{ paneId: pane.id }, { taskId: task.id }]) {
      for (const e of (await api.events.list.query(q)).events)
        expect(Buffer.byteLength(JSON.stringify(e.payload))).toBeLessThanOrEqual(LIMITS.eventPayloadBytes);
    }
  });

  it("a hook whose name field is 200 KB long is refused, and nothing of it is stored", async () => {
    const { pane, env } = await startRecordingWorker(api, dirs.repo());
    const huge = "n".repeat(200 * 1024);
    const r = await yard(server, ["hook", "Notification"], {
      env,
      input: JSON.stringify({ hook_event_name: "Notification", notification_type: huge }),
    });
    expect(r.code).toBe(0); // yard hook never fails the agent
    expect(r.stderr).toContain("BAD_PARAMS");
    // Refused before the reducer: no pane.hook event for it, and the text is nowhere in the journal.
    const after = (await api.events.list.query({ paneId: pane.id })).events;
    expect(after.filter((e) => e.type === "pane.hook" && e.payload.name === "Notification")).toEqual([]);
    expect(JSON.stringify(after)).not.toContain("nnnnnnnnnn");
  });
});

describe("retention at start-up", () => {
  it("prunes events older than YARD_JOURNAL_MAX_DAYS and beyond YARD_JOURNAL_MAX_EVENTS, keeps the newest, and says so", async () => {
    const home = dirs.track(mkdtempSync(path.join(os.tmpdir(), "yard-home-retention-")));
    seedHome(home);
    // A journal kept for a while: 300 events from 40 days ago, then 1500 from two hours ago.
    const { db } = await openDatabase(path.join(home, "yard.db"));
    const seed = async (n: number, ageMs: number) => {
      const t0 = Date.now() - ageMs;
      const times = JSON.stringify(
        Array.from({ length: n }, (_, i) => new Date(t0 + i).toISOString().replace("Z", "+00:00")),
      );
      await db.$executeRaw`INSERT INTO Event (type, payload, time) SELECT 'test.seeded', '{"i":' || key || '}', value FROM json_each(${times}) ORDER BY key`;
      return (await db.event.findMany({ orderBy: { seq: "asc" }, select: { seq: true } })).map((r) => r.seq).slice(-n);
    };
    const ancient = await seed(300, 40 * 86_400_000);
    const recent = await seed(1500, 2 * 3_600_000);
    await db.$disconnect();

    const server = await startTestServer({
      home,
      env: { YARD_JOURNAL_MAX_DAYS: "30", YARD_JOURNAL_MAX_EVENTS: "1000" },
    });
    servers.push(server);
    const api = adminClient(server);
    const marker = await waitFor(async () => (await api.events.list.query({ type: "journal.pruned" })).events[0], {
      what: "the journal.pruned marker",
    });

    // A reader from seq 0 (below the pruned range): no failure, the rest in order, the marker among it.
    const r = await yard(server, ["--json", "events", "--since", "0"]);
    expect(r.code, r.stderr).toBe(0);
    const seqs: number[] = r.json.events.map((e: { seq: number }) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs.filter((s) => ancient.includes(s))).toEqual([]);
    expect(seqs.filter((s) => s <= marker.seq).length).toBeLessThanOrEqual(1000);
    expect(seqs).toContain(recent.at(-1)!);
    expect(seqs).not.toContain(recent[0]!);
    expect(marker.payload).toMatchObject({ maxDays: 30, maxEvents: 1000, kept: 0 });
    expect(marker.payload.through).toBeGreaterThanOrEqual(ancient.at(-1)!);
    expect(seqs[0]).toBeGreaterThan(marker.payload.through as number);
    // And a person sees it in the journal's human listing.
    const human = await yard(server, ["events", "--type", "journal.pruned"]);
    expect(human.stdout).toContain(`journal.pruned`);
  });

  it("refuses to start with a retention setting out of range", async () => {
    // A server that starts anyway is still stopped at the end.
    const err = await startTestServer({ env: { YARD_JOURNAL_MAX_EVENTS: "10" } }).then(
      (s) => {
        servers.push(s);
        return null;
      },
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/YARD_JOURNAL_MAX_EVENTS must be 0 \(no limit\) or a whole number from 1000/);
  });
});
