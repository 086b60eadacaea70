// Browser sessions on a real file: both halves needed, only hashes stored, rotation, and sessions
// written before keys existed dropped (their browsers open the login link once more).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "./sessions";

const dirs: string[] = [];
const file = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), "yard-sessions-"));
  dirs.push(d);
  return path.join(d, "sessions.json");
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("SessionStore", () => {
  it("needs the cookie and its own key; the cookie alone is only a cookie", () => {
    const f = file();
    const store = new SessionStore(f);
    const a = store.create();
    const b = store.create();
    expect(store.verify(a.cookie, a.key)).toBe(true);
    expect(store.verify(a.cookie, undefined)).toBe(false);
    expect(store.verify(a.cookie, b.key)).toBe(false);
    expect(store.verify(b.key, a.key)).toBe(false);
    expect(store.verifyCookie(a.cookie)).toBe(true);
    expect(store.verifyCookie(a.key)).toBe(false);
    const text = readFileSync(f, "utf8");
    for (const secret of [a.cookie, a.key, b.cookie, b.key]) expect(text).not.toContain(secret);
    // Another process (a restart) reads the same sessions.
    expect(new SessionStore(f).verify(b.cookie, b.key)).toBe(true);
  });

  it("rotates: a login from a browser that held a session revokes it, and says so", () => {
    const store = new SessionStore(file());
    const old = store.create();
    const revoked: string[] = [];
    store.onRevoked((h) => revoked.push(h));
    const fresh = store.create(old.cookie);
    expect(store.verify(old.cookie, old.key)).toBe(false);
    expect(store.verifyCookie(old.cookie)).toBe(false);
    expect(store.verify(fresh.cookie, fresh.key)).toBe(true);
    expect(revoked).toEqual([SessionStore.hash(old.cookie)]);
  });

  it("drops sessions stored before keys existed", () => {
    const f = file();
    const legacyCookie = "legacy-cookie-value";
    writeFileSync(f, JSON.stringify({ sessions: [{ hash: SessionStore.hash(legacyCookie), createdAt: Date.now() }] }));
    const store = new SessionStore(f);
    expect(store.verifyCookie(legacyCookie)).toBe(false);
    expect(store.verify(legacyCookie, "anything")).toBe(false);
  });
});
