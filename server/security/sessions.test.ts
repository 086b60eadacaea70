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
    const a = store.create(undefined);
    const b = store.create(undefined);
    expect(store.verify(a.cookie, a.key)).toBe("usrowner");
    expect(store.verify(a.cookie, undefined)).toBeNull();
    expect(store.verify(a.cookie, b.key)).toBeNull();
    expect(store.verify(b.key, a.key)).toBeNull();
    expect(store.verifyCookie(a.cookie)).toBe("usrowner");
    expect(store.verifyCookie(a.key)).toBeNull();
    const text = readFileSync(f, "utf8");
    for (const secret of [a.cookie, a.key, b.cookie, b.key]) expect(text).not.toContain(secret);
    // Another process (a restart) reads the same sessions.
    expect(new SessionStore(f).verify(b.cookie, b.key)).toBe("usrowner");
  });

  it("rotates: a login from a browser that held a session revokes it, and says so", () => {
    const store = new SessionStore(file());
    const old = store.create(undefined);
    const revoked: string[] = [];
    store.onRevoked((h) => revoked.push(h));
    const fresh = store.create(old.cookie);
    expect(store.verify(old.cookie, old.key)).toBeNull();
    expect(store.verifyCookie(old.cookie)).toBeNull();
    expect(store.verify(fresh.cookie, fresh.key)).toBe("usrowner");
    expect(revoked).toEqual([SessionStore.hash(old.cookie)]);
  });

  it("keeps whose each session is, and revokes all of one person's at once", () => {
    const store = new SessionStore(file());
    const mine = store.create(undefined, "usrmia");
    const other = store.create(undefined, "usrmia");
    const owners = store.create(undefined);
    const revoked: string[] = [];
    store.onRevoked((h) => revoked.push(h));
    expect(store.verify(mine.cookie, mine.key)).toBe("usrmia");
    expect(store.revokePerson("usrmia")).toBe(2);
    expect(store.verify(mine.cookie, mine.key)).toBeNull();
    expect(store.verifyCookie(other.cookie)).toBeNull();
    expect(store.verify(owners.cookie, owners.key)).toBe("usrowner");
    expect(revoked.sort()).toEqual([SessionStore.hash(mine.cookie), SessionStore.hash(other.cookie)].sort());
    expect(store.revokePerson("usrmia")).toBe(0);
  });

  it("drops sessions stored before keys existed", () => {
    const f = file();
    const legacyCookie = "legacy-cookie-value";
    writeFileSync(f, JSON.stringify({ sessions: [{ hash: SessionStore.hash(legacyCookie), createdAt: Date.now() }] }));
    const store = new SessionStore(f);
    expect(store.verifyCookie(legacyCookie)).toBeNull();
    expect(store.verify(legacyCookie, "anything")).toBeNull();
  });
});
