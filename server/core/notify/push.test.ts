// The pure parts of Web Push: the notice a task event becomes (title, body, absolute task page,
// one tag per task, bounded size), the VAPID subject, which endpoints the server will send to
// (the public push services over https, and exactly the hosts YARD_PUSH_ALLOW_HOSTS adds), and
// which subscription keys it can encrypt to.
import { createECDH, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { PUSH_KINDS } from "../../wire/push";
import { endpointRefusal, keysRefusal, parseAllowHosts } from "./push-endpoint";
import { pushNotice, vapidSubject } from "./push";
import { WEBHOOK_EVENTS } from "./webhooks";

describe("pushNotice", () => {
  const task = { id: "tsk1", title: "Fix the login", line: null };
  it("names the task and what happened, links its page on the board's address, one tag per task", () => {
    expect(pushNotice("needs_you", task, "https://board.example.com/")).toEqual({
      kind: "needs_you",
      taskId: "tsk1",
      title: "Fix the login: needs you",
      body: "The agent is waiting for you.",
      url: "https://board.example.com/tasks/tsk1",
      tag: "/tasks/tsk1",
    });
    expect(pushNotice("review", task, "http://127.0.0.1:7420")).toMatchObject({
      title: "Fix the login: ready for review",
      body: "Ready for review.",
      url: "http://127.0.0.1:7420/tasks/tsk1",
      tag: "/tasks/tsk1",
    });
    expect(pushNotice("merged", task, "http://b").title).toBe("Fix the login: merged");
  });

  it("says why a task needs you or failed when its card says so; not for review or merged", () => {
    const t = { ...task, line: "Failed: the agent exited (code 1)" };
    expect(pushNotice("failed", t, "http://b").body).toBe("Failed: the agent exited (code 1)");
    expect(pushNotice("review", t, "http://b").body).toBe("Ready for review.");
  });

  it("stays small, whatever the title: one line, cut", () => {
    const n = pushNotice("failed", { id: "tsk1", title: `a\n${"é".repeat(5000)}`, line: "x".repeat(5000) }, "http://b");
    expect(n.title).not.toContain("\n");
    expect(n.title.length).toBeLessThanOrEqual(120 + ": failed".length);
    expect(n.body.length).toBeLessThanOrEqual(240);
    expect(Buffer.byteLength(JSON.stringify(n))).toBeLessThan(3000);
  });

  it("knows the same four kinds as the project webhooks", () => expect([...PUSH_KINDS]).toEqual([...WEBHOOK_EVENTS]));
});

describe("vapidSubject", () => {
  it("is the board's https address, else the configured one, else a mailto: placeholder", () => {
    expect(vapidSubject("https://board.example.com:8443/x", undefined)).toBe("https://board.example.com:8443");
    expect(vapidSubject("http://127.0.0.1:7420", undefined)).toBe("mailto:switchyard@localhost");
    expect(vapidSubject("https://localhost:7420", undefined)).toBe("mailto:switchyard@localhost");
    expect(vapidSubject("https://board.example.com", "mailto:ops@example.com")).toBe("mailto:ops@example.com");
  });
});

describe("endpointRefusal", () => {
  it.each([
    "https://fcm.googleapis.com/fcm/send/abc:def",
    "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
    "https://wns2-par02p.notify.windows.com/w/?token=BQYAAA",
    "https://web.push.apple.com/QGx",
    "https://api.push.apple.com/3/device/x",
    "https://fcm.googleapis.com:443/fcm/send/x",
  ])("sends to a public push service: %s", (url) => expect(endpointRefusal(url, [])).toBeNull());

  it.each([
    ["http://fcm.googleapis.com/fcm/send/x", /must be https/],
    ["https://fcm.googleapis.com:8443/fcm/send/x", /default port/],
    ["https://user:pw@fcm.googleapis.com/x", /credentials/],
    ["https://push.services.mozilla.com/x", /not a known push service/],
    ["https://evil.example/fcm.googleapis.com", /evil\.example is not a known push service/],
    ["https://fcm.googleapis.com.evil.example/x", /not a known push service/],
    ["https://x.notify.windows.com.evil.example/x", /not a known push service/],
    ["https://169.254.169.254/latest/meta-data", /not a known push service/],
    ["http://127.0.0.1:8080/push/1", /must be https/],
    ["file:///etc/passwd", /must be https/],
    ["not a url", /not a URL/],
  ])("refuses %s", (url, why) => expect(endpointRefusal(url, [])).toMatch(why));

  it("adds exactly the hosts YARD_PUSH_ALLOW_HOSTS names, over http too", () => {
    const allow = parseAllowHosts(" 127.0.0.1:8080, push.internal ,[::1]:9000,Push.Other:443");
    expect(allow).toEqual(["127.0.0.1:8080", "push.internal", "[::1]:9000", "push.other:443"]);
    expect(endpointRefusal("http://127.0.0.1:8080/push/1", allow)).toBeNull();
    expect(endpointRefusal("https://127.0.0.1:8080/push/1", allow)).toBeNull();
    expect(endpointRefusal("http://[::1]:9000/p", allow)).toBeNull();
    expect(endpointRefusal("http://push.internal/p", allow)).toBeNull();
    expect(endpointRefusal("https://push.other/p", allow)).toBeNull();
    expect(endpointRefusal("http://127.0.0.1:8081/push/1", allow)).toMatch(/must be https/);
    expect(endpointRefusal("https://127.0.0.1:8081/push/1", allow)).toMatch(/not a known push service/);
    expect(endpointRefusal("http://push.internal:8080/p", allow)).toMatch(/must be https/);
    expect(endpointRefusal("http://localhost:8080/p", allow)).toMatch(/must be https/);
  });

  it("refuses a setting that is not a list of hosts", () => {
    expect(parseAllowHosts(undefined)).toEqual([]);
    expect(parseAllowHosts(" , ")).toEqual([]);
    for (const bad of ["http://x", "x/y", "x:99999", "a b", "user@x"])
      expect(() => parseAllowHosts(bad)).toThrow(/YARD_PUSH_ALLOW_HOSTS/);
  });
});

describe("keysRefusal", () => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const p256dh = ecdh.getPublicKey().toString("base64url");
  const auth = randomBytes(16).toString("base64url");
  it("takes a browser's P-256 key and 16-byte secret", () => expect(keysRefusal({ p256dh, auth })).toBeNull());
  it.each([
    [{ p256dh: ecdh.getPublicKey(undefined, "compressed").toString("base64url"), auth }, /uncompressed/],
    [{ p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString("base64url"), auth }, /curve/],
    [{ p256dh, auth: randomBytes(8).toString("base64url") }, /16 bytes/],
  ])("refuses keys it cannot encrypt to (%#)", (keys, why) => expect(keysRefusal(keys)).toMatch(why));
});
