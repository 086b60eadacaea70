// This process's registration among the processes sharing a board: a fresh secret per start, the
// heartbeat writing the row again when it went missing, the secret check, the look-up of others
// (never itself, never a row not seen lately), nothing at all on an unshared (SQLite) board, and
// YARD_INTERNAL_URL read strictly.
import { describe, expect, it } from "vitest";
import type { BoardProcessRow, BoardProcessStore } from "../stores/board-processes";
import { waitFor } from "../../tests/helpers/wait";
import { BoardPresence, internalUrlFromEnv } from "./presence";

function memoryStore() {
  const rows = new Map<string, BoardProcessRow>();
  const store = {
    async register(r: { instanceId: string; address: string; secret: string }) {
      rows.set(r.instanceId, { ...r, startedAt: new Date(), seenAt: new Date() });
    },
    async seen(id: string) {
      const r = rows.get(id);
      if (r) r.seenAt = new Date();
      return Boolean(r);
    },
    async remove(id: string, secret: string) {
      if (rows.get(id)?.secret === secret) rows.delete(id);
    },
    async live(id: string, since: Date) {
      const r = rows.get(id);
      return r && r.seenAt >= since ? r : null;
    },
  };
  return { rows, store: store as unknown as BoardProcessStore };
}

describe("BoardPresence", () => {
  it("registers with a fresh secret per start, checks it, and removes its row at close", async () => {
    const { rows, store } = memoryStore();
    const p = new BoardPresence({ store, instanceId: "aaaaaaaaaaaa", shared: true });
    expect(p.verify("anything")).toBe(false); // nothing admitted before it registered
    await p.register("http://127.0.0.1:4000");
    const first = rows.get("aaaaaaaaaaaa")!;
    expect(first.address).toBe("http://127.0.0.1:4000");
    expect(p.verify(first.secret)).toBe(true);
    expect(p.verify(`${first.secret}x`)).toBe(false);
    expect(p.verify(undefined)).toBe(false);
    await p.close();
    expect(rows.has("aaaaaaaaaaaa")).toBe(false);
    expect(p.verify(first.secret)).toBe(false);

    const again = new BoardPresence({ store, instanceId: "aaaaaaaaaaaa", shared: true });
    await again.register("http://127.0.0.1:4000");
    expect(rows.get("aaaaaaaaaaaa")!.secret).not.toBe(first.secret);
    await again.close();
  });

  it("publishes YARD_INTERNAL_URL instead of the listen URL, and writes its row again when it went missing", async () => {
    const { rows, store } = memoryStore();
    const p = new BoardPresence({
      store,
      instanceId: "bbbbbbbbbbbb",
      shared: true,
      internalUrl: "http://10.0.0.5:4000",
      heartbeatMs: 20,
    });
    await p.register("http://127.0.0.1:4000");
    const secret = rows.get("bbbbbbbbbbbb")!.secret;
    expect(rows.get("bbbbbbbbbbbb")!.address).toBe("http://10.0.0.5:4000");
    rows.delete("bbbbbbbbbbbb");
    await waitFor(() => rows.get("bbbbbbbbbbbb"), { what: "the heartbeat to write the row again" });
    expect(rows.get("bbbbbbbbbbbb")!.secret).toBe(secret);
    await p.close();
  });

  it("finds another running process, never itself or one not seen lately", async () => {
    const { rows, store } = memoryStore();
    const me = new BoardPresence({ store, instanceId: "cccccccccccc", shared: true });
    await me.register("http://127.0.0.1:1");
    await store.register({ instanceId: "dddddddddddd", address: "http://127.0.0.1:2", secret: "s" });
    expect(await me.lookup("dddddddddddd")).toEqual({
      instanceId: "dddddddddddd",
      address: "http://127.0.0.1:2",
      secret: "s",
    });
    expect(await me.lookup("cccccccccccc")).toBeNull();
    expect(await me.lookup("eeeeeeeeeeee")).toBeNull();
    rows.get("dddddddddddd")!.seenAt = new Date(Date.now() - 60_000);
    expect(await me.lookup("dddddddddddd")).toBeNull();
    await me.close();
  });

  it("does nothing on a board no other process can share", async () => {
    const { rows, store } = memoryStore();
    await store.register({ instanceId: "dddddddddddd", address: "http://127.0.0.1:2", secret: "s" });
    const p = new BoardPresence({ store, instanceId: "ffffffffffff", shared: false });
    await p.register("http://127.0.0.1:1");
    expect([...rows.keys()]).toEqual(["dddddddddddd"]);
    expect(await p.lookup("dddddddddddd")).toBeNull();
    expect(p.verify("s")).toBe(false);
  });

  it("reads YARD_INTERNAL_URL as an http(s) origin, refusing anything else", () => {
    expect(internalUrlFromEnv({})).toBeUndefined();
    expect(internalUrlFromEnv({ YARD_INTERNAL_URL: "http://board-1.internal:4000" })).toBe(
      "http://board-1.internal:4000",
    );
    expect(internalUrlFromEnv({ YARD_INTERNAL_URL: "https://10.0.0.5:4000/" })).toBe("https://10.0.0.5:4000");
    for (const bad of ["board-1:4000", "ftp://x", "http://u:p@x", "http://x/path", "http://x?q=1"])
      expect(() => internalUrlFromEnv({ YARD_INTERNAL_URL: bad }), bad).toThrow(/YARD_INTERNAL_URL/);
  });
});
