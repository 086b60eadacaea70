// Journal events are typed: every event type the server appends has a payload schema, append
// refuses (tests, dev) or marks and keeps (production) a payload that does not match it, and
// readers get every row as a typed event (odd rows as `journal.unreadable`, never an error) that
// the tRPC output schemas accept.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../db";
import { EventStore } from "../../stores/events";
import { EVENT_TYPES, eventPayloads, eventsReply, type EventType } from "../../wire/events";
import { YardError } from "../errors";
import { EventJournal, strictEventsDefault } from "./journal";
import { openTestDb, PROVIDERS } from "../../../tests/helpers/pg";
import { waitFor } from "../../../tests/helpers/wait";

let dir: string;
let db: Db;
let store: EventStore;

let closeDb: (() => Promise<void>) | undefined;

// On both databases: the embedded SQLite and PostgreSQL (when the run has a cluster).
describe.each(PROVIDERS)("the journal (%s)", (provider) => {
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "yard-journal-types-"));
    ({ db, close: closeDb } = await openTestDb(provider, dir));
    store = new EventStore(db);
  });
  afterAll(async () => {
    await closeDb?.();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await db.event.deleteMany({});
  });

  /** A payload the types would refuse, for the run-time check (as a caller with a bad cast would pass it). */
  const untyped = <T>(v: unknown) => v as T;

  describe("appending", () => {
    it("is strict in tests and dev, and in production only with YARD_STRICT_EVENTS=1", () => {
      expect(strictEventsDefault({ NODE_ENV: "test" })).toBe(true);
      expect(strictEventsDefault({})).toBe(true);
      expect(strictEventsDefault({ NODE_ENV: "production" })).toBe(false);
      expect(strictEventsDefault({ NODE_ENV: "production", YARD_STRICT_EVENTS: "1" })).toBe(true);
    });

    it("strict: a payload that does not match its schema is an INTERNAL error, and nothing is written", async () => {
      const journal = new EventJournal(store, { strict: true });
      const seen: unknown[] = [];
      journal.subscribe((e) => seen.push(e));
      const bad = journal.append("task.state", {
        taskId: "tsk1234",
        payload: untyped({ from: "working", to: "finished", cause: "report", round: 1, evidence: null, extra: 1 }),
      });
      const err = await bad.catch((e: unknown) => e);
      expect(err).toBeInstanceOf(YardError);
      expect((err as YardError).code).toBe("INTERNAL");
      expect((err as YardError).message).toMatch(
        /task\.state does not match its schema: to: .*unknown field\(s\) extra/s,
      );
      const missing = await journal
        .append("task.round", { payload: untyped({ round: 2 }) })
        .catch((e: unknown) => (e as Error).message);
      expect(missing).toMatch(/task\.round.*freshPane/);
      expect(await journal.head()).toBe(0);
      expect(seen).toEqual([]);
      // The queue is not wedged by a refusal: the next good event goes through.
      const ok = await journal.append("task.round", { taskId: "tsk1234", payload: { round: 2, freshPane: true } });
      expect(ok).toMatchObject({ type: "task.round", taskId: "tsk1234", payload: { round: 2, freshPane: true } });
    });

    it("production: the event is kept under its type, the fields that do not match dropped and named, and the log says so", async () => {
      const log: string[] = [];
      const journal = new EventJournal(store, { strict: false, log: (l) => log.push(l) });
      const seen: unknown[] = [];
      journal.subscribe((e) => seen.push(e), { type: "task.state" });
      const e = await journal.append("task.state", {
        taskId: "tsk1234",
        payload: untyped({ from: "working", to: "finished", cause: "report", round: 3, evidence: null, extra: [1] }),
      });
      expect(e.type).toBe("task.state");
      expect(e.payload).toMatchObject({ from: "working", cause: "report", round: 3, evidence: null });
      expect(e.payload.to).toBeUndefined();
      expect(e.payload._invalid).toEqual({
        to: expect.stringContaining('"finished"'),
        extra: expect.stringContaining("[1]"),
      });
      expect(log).toEqual([
        expect.stringMatching(/^switchyard: BUG: journal event task\.state does not match .*\(kept, marked\)$/),
      ]);
      expect(seen).toEqual([e]);
      // Waiters and readers see it as what it is.
      expect(await journal.list({ taskId: "tsk1234", type: "task.state" })).toEqual([e]);
    });
  });

  describe("reading", () => {
    it("every row is a typed event the output schemas accept; odd rows are journal.unreadable, not errors", async () => {
      const journal = new EventJournal(store, { strict: true });
      const good = await journal.append("pane.lifecycle", {
        paneId: "pane1234",
        payload: { from: "working", to: "done", seq: 4, cause: "hook:Stop", exitCode: null, lastMessage: "ok" },
      });
      // Rows another version (or a bug) wrote: a field of the wrong type, a field no schema names,
      // a type with no schema, a payload that is not JSON.
      const insert = (type: string, payload: string) =>
        db.$executeRaw`INSERT INTO "Event" ("type", "paneId", "payload") VALUES (${type}, 'pane1234', ${payload})`;
      await insert("pane.lifecycle", JSON.stringify({ from: "working", to: 7, seq: 5, cause: "exit", note: "old" }));
      await insert("pane.teleported", JSON.stringify({ where: "mars" }));
      await insert("pane.lifecycle", "{not json");
      const events = await journal.list({ paneId: "pane1234" });
      expect(events.map((e) => e.type)).toEqual([
        "pane.lifecycle",
        "pane.lifecycle",
        "journal.unreadable",
        "journal.unreadable",
      ]);
      expect(events[0]).toEqual(good);
      expect(events[1]!.payload).toEqual({
        from: "working",
        seq: 5,
        cause: "exit",
        note: "old",
        _invalid: { to: expect.stringContaining("7") },
      });
      expect(events[2]!.payload).toEqual({
        type: "pane.teleported",
        problem: "no schema for this event type",
        raw: '{"where":"mars"}',
      });
      expect(events[3]!.payload).toMatchObject({ type: "pane.lifecycle", problem: "the payload is not JSON" });
      // An exact-type query gets that type only; the reply schema of events.list takes them all.
      expect((await journal.list({ paneId: "pane1234", type: "pane.lifecycle" })).length).toBe(2);
      expect(eventsReply.parse({ events, head: await journal.head() }).events).toEqual(events);
    });
  });

  describe("every appended event type has a schema", () => {
    const ROOT = path.resolve(import.meta.dirname, "../../..");
    const sources = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir)).flatMap((name) => {
        const rel = path.join(dir, name);
        if (statSync(path.join(ROOT, rel)).isDirectory()) return name === "generated" ? [] : sources(rel);
        return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [rel] : [];
      });
    const files = sources("server").map((f) => ({ f, src: readFileSync(path.join(ROOT, f), "utf8") }));

    /** The event types the server code appends: literal appends, the pane reducer's journal effects, retention's marker. */
    function appendedTypes(): { types: Map<string, string>; dynamic: string[] } {
      const types = new Map<string, string>();
      const dynamic: string[] = [];
      for (const { f, src } of files) {
        for (const m of src.matchAll(/journal\s*\.append\(\s*([^,\s]+)/g)) {
          const arg = m[1]!;
          const literal = /^"([^"]+)"$/.exec(arg);
          if (literal) types.set(literal[1]!, f);
          else dynamic.push(`${f}: ${arg}`);
        }
        for (const m of src.matchAll(/kind: "journal",\s*type: "([^"]+)"/g)) types.set(m[1]!, f);
        for (const m of src.matchAll(/export const PRUNED_EVENT = "([^"]+)"/g)) types.set(m[1]!, f);
      }
      return { types, dynamic };
    }

    it("finds the appends in the source, each of a type with a schema", () => {
      const { types, dynamic } = appendedTypes();
      expect(types.size).toBeGreaterThan(35);
      // Appends whose type is not a literal: each is covered above (its types are literals elsewhere).
      expect(dynamic.sort()).toEqual([
        "server/core/events/retention.ts: PRUNED_EVENT",
        "server/core/panes/lifecycle-driver.ts: effect.type",
      ]);
      const unknown = [...types].filter(([t]) => !Object.hasOwn(eventPayloads, t)).map(([t, f]) => `${t} (${f})`);
      expect(unknown).toEqual([]);
    });

    it("has no schema for a type nothing appends (but the store's own journal.unreadable)", () => {
      const { types } = appendedTypes();
      expect(EVENT_TYPES.filter((t) => !types.has(t))).toEqual(["journal.unreadable"]);
    });

    it("does not compile an append of a type without a schema", () => {
      const journal = new EventJournal(store);
      const neverRun = () => {
        // @ts-expect-error: no schema for this type (the typecheck fails if this line compiles)
        void journal.append("task.teleported", { payload: {} });
        // @ts-expect-error: a payload that is not its type's (the typecheck fails if this compiles)
        void journal.append("task.round", { payload: { round: "two", freshPane: true } });
      };
      expect(typeof neverRun).toBe("function");
      const t: EventType = "task.round";
      expect(EVENT_TYPES).toContain(t);
    });
  });

  describe("other processes (PostgreSQL's notices, simulated by calls)", () => {
    it("hands out, once the channel is back, what another process appended while it was down, and nothing twice", async () => {
      const a = new EventJournal(store, { strict: true });
      const b = new EventJournal(store, { strict: true });
      const heard: number[] = [];
      b.subscribe((e) => heard.push(e.seq), {}, { otherProcesses: true });
      const round = (n: number) => ({ taskId: "tsk1234", payload: { round: n, freshPane: true } });
      const until = (seq: number) => waitFor(() => heard.includes(seq), { what: `event ${seq} to be heard` });

      const first = await a.append("task.round", round(1));
      b.deliverRemote([first.seq]); // heard as usual
      await until(first.seq);
      b.remoteDropped();
      const own = await b.append("task.round", round(2)); // its own, during the drop
      const missed = [await a.append("task.round", round(3)), await a.append("task.round", round(4))];
      b.remoteDropped(); // a second drop before it is back keeps the first mark
      b.remoteReconnected();
      b.deliverRemote([missed[1]!.seq, first.seq]); // late and repeated notices
      const last = await a.append("task.round", round(5));
      b.deliverRemote([last.seq]);
      await until(last.seq);
      expect(heard).toEqual([first.seq, own.seq, missed[0]!.seq, missed[1]!.seq, last.seq]);
    });
  });
});
