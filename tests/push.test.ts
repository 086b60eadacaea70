// Web Push against a real server and a real HTTP receiver standing in for the push service
// (allowed with YARD_PUSH_ALLOW_HOSTS). The browser's side is simulated with real crypto: a P-256
// key pair and an auth secret; the receiver checks the request as a push service would (aes128gcm,
// TTL, a VAPID JWT signed by the board's key for the receiver's origin) and decrypts the message as
// the browser would (RFC 8291, written here independently of the library that encrypts). A 410
// deletes the subscription; refused endpoints, keys and callers store nothing; the key pair is the
// same after a restart and its private half is in no answer and no log line.
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  verify as verifySignature,
} from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

interface Got {
  id: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A push service on loopback: keeps every POST to /push/<id>, answers 201 unless told otherwise for that id. */
function pushService() {
  const got: Got[] = [];
  const answers = new Map<string, number>();
  const srv = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (d: Buffer) => chunks.push(d));
    req.on("end", () => {
      const id = /^\/push\/([\w-]+)$/.exec(req.url ?? "")?.[1] ?? "?";
      got.push({ id, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(req.method === "POST" ? (answers.get(id) ?? 201) : 405).end();
    });
  });
  return {
    got,
    to: (id: string) => got.filter((g) => g.id === id),
    answer: (id: string, status: number) => answers.set(id, status),
    listen: () => new Promise<number>((r) => srv.listen(0, "127.0.0.1", () => r((srv.address() as AddressInfo).port))),
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

/** A browser's push subscription: its key pair and auth secret, as PushSubscription.toJSON() gives them. */
function browser(endpoint: string) {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return {
    ecdh,
    auth,
    sub: { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } },
  };
}

/** RFC 8291 / RFC 8188 (aes128gcm), one record: what the browser does with a push message. */
function decrypt(body: Buffer, ua: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const cipher = body.subarray(21 + idlen);
  expect(idlen).toBe(65);
  expect(body.readUInt32BE(16)).toBeGreaterThanOrEqual(cipher.length);
  const secret = ua.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), ua.ecdh.getPublicKey(), asPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", secret, ua.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const d = createDecipheriv("aes-128-gcm", cek, nonce);
  d.setAuthTag(cipher.subarray(cipher.length - 16));
  const padded = Buffer.concat([d.update(cipher.subarray(0, cipher.length - 16)), d.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2); // the last record's delimiter
  return padded.subarray(0, end).toString("utf8");
}

/** `vapid t=<JWT>, k=<key>`: the JWT's claims once its ES256 signature verifies with k. */
function vapid(authorization: string | undefined): { k: string; claims: Record<string, unknown> } {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? "");
  expect(m, authorization).not.toBeNull();
  const [, jwt, k] = m!;
  const [h, p, s] = jwt!.split(".") as [string, string, string];
  expect(JSON.parse(Buffer.from(h, "base64url").toString())).toMatchObject({ alg: "ES256", typ: "JWT" });
  const pub = Buffer.from(k!, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: pub.subarray(1, 33).toString("base64url"),
      y: pub.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const ok = verifySignature(
    "sha256",
    Buffer.from(`${h}.${p}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(s, "base64url"),
  );
  expect(ok).toBe(true);
  return { k: k!, claims: JSON.parse(Buffer.from(p, "base64url").toString()) as Record<string, unknown> };
}

const service = pushService();
let port: number;
let origin: string;
let server: TestServer;
let api: ReturnType<typeof adminClient>;
let repo: string;
let projectId: string;
const tmp: string[] = [];

const env = () => ({ YARD_PUSH_ALLOW_HOSTS: `127.0.0.1:${port}` });
const endpoint = (id: string) => `${origin}/push/${id}`;

/** The board's database, read directly (what is stored, whatever the API shows). */
function dbRows<T>(sql: string, ...args: unknown[]): T[] {
  const db = new Database(path.join(server.home, "yard.db"), { readonly: true, fileMustExist: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

/** Starts a task whose agent reports it failed, and waits until it has. */
async function failedTask(title: string): Promise<string> {
  const { task } = await api.tasks.start.mutate({
    projectId,
    title,
    objective: "x",
    argv: ["sh", "-c", "yard task report --status failed --summary boom >/dev/null; exec sleep 600"],
  });
  await api.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
  return task.id;
}

beforeAll(async () => {
  port = await service.listen();
  origin = `http://127.0.0.1:${port}`;
  server = await startTestServer({ env: env() });
  api = adminClient(server);
  repo = makeRepo();
  projectId = (await api.projects.add.mutate({ path: repo, name: "push" })).id;
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  await service.close();
  rmSync(repo, { recursive: true, force: true });
  for (const d of tmp) rmSync(d, { recursive: true, force: true });
});

describe("Web Push", () => {
  const phone = browser("");
  const mergedOnly = browser("");

  it("sends a task's notice to the subscriptions that asked for it: encrypted to the browser, VAPID-signed for the push service", async () => {
    phone.sub.endpoint = endpoint("phone");
    mergedOnly.sub.endpoint = endpoint("merged-only");
    const { publicKey } = await api.push.key.query();
    expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
    const made = await api.push.subscribe.mutate({ ...phone.sub, kinds: ["failed", "needs_you"], label: "Phone" });
    expect(made).toMatchObject({ endpoint: phone.sub.endpoint, kinds: ["needs_you", "failed"], label: "Phone" });
    await api.push.subscribe.mutate({ ...mergedOnly.sub, kinds: ["merged"] });

    const taskId = await failedTask("Build the rocket");
    const [msg] = await waitFor(() => (service.to("phone").length ? service.to("phone") : null), {
      what: "the push message",
    });
    expect(msg!.headers["content-encoding"]).toBe("aes128gcm");
    expect(msg!.headers["content-type"]).toBe("application/octet-stream");
    expect(msg!.headers.ttl).toBe("3600");
    expect(msg!.headers.urgency).toBe("normal");
    const { k, claims } = vapid(msg!.headers.authorization);
    expect(k).toBe(publicKey);
    expect(claims.aud).toBe(origin);
    expect(claims.sub).toMatch(/^(mailto:|https:)/);
    expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    expect(msg!.body.length).toBeLessThan(3072);
    const notice = JSON.parse(decrypt(msg!.body, phone)) as Record<string, unknown>;
    expect(notice).toEqual({
      kind: "failed",
      taskId,
      title: "Build the rocket: failed",
      body: "The task failed.",
      url: `${server.url}/tasks/${taskId}`,
      tag: `/tasks/${taskId}`,
    });
    expect(service.to("merged-only")).toHaveLength(0); // it asked for merges only
    await waitFor(async () => (await api.push.list.query()).find((s) => s.endpoint === phone.sub.endpoint)?.lastOkAt, {
      what: "the send to be recorded",
    });
    // Each message is encrypted afresh: nothing in it repeats the browser's keys.
    expect(msg!.body.includes(phone.ecdh.getPublicKey())).toBe(false);
  });

  it("deletes a subscription the push service says is gone (410), and sends it nothing more", async () => {
    const gone = browser(endpoint("gone"));
    service.answer("gone", 410);
    await api.push.subscribe.mutate({ ...gone.sub, kinds: ["failed"] });
    const before = service.to("phone").length;
    await failedTask("First");
    await waitFor(() => service.to("gone").length === 1, { what: "the send to the gone browser" });
    await waitFor(async () => !(await api.push.list.query()).some((s) => s.endpoint === gone.sub.endpoint), {
      what: "the subscription to be deleted",
    });
    await failedTask("Second");
    await waitFor(() => service.to("phone").length === before + 2, { what: "both notices to the phone" });
    const last = JSON.parse(decrypt(service.to("phone").at(-1)!.body, phone)) as { title: string };
    expect(last.title).toBe("Second: failed");
    expect(service.to("gone")).toHaveLength(1);
    expect(dbRows("SELECT id FROM PushSubscription WHERE endpoint = ?", gone.sub.endpoint)).toEqual([]);
  });

  it("counts other failures, and drops a subscription after five in a row", async () => {
    const flaky = browser(endpoint("flaky"));
    service.answer("flaky", 500);
    await api.push.subscribe.mutate({ ...flaky.sub, kinds: ["failed"] });
    const failures = async () => (await api.push.list.query()).find((s) => s.endpoint === flaky.sub.endpoint)?.failures;
    for (let i = 1; i <= 4; i++) {
      await failedTask(`Flaky ${i}`);
      await waitFor(async () => (await failures()) === i, { what: `failure ${i} to be counted` });
    }
    await failedTask("Flaky 5");
    await waitFor(async () => (await failures()) === undefined, { what: "the subscription to be dropped" });
    expect(service.to("flaky")).toHaveLength(5);
  });

  it("refuses endpoints that are no push service, bad keys and pane callers, storing nothing", async () => {
    const stored = () => dbRows<{ endpoint: string }>("SELECT endpoint FROM PushSubscription").length;
    const before = stored();
    const keys = browser("").sub.keys;
    const refusals: Array<[unknown, RegExp]> = [
      [{ endpoint: `http://localhost:${port}/push/x`, keys }, /must be https/],
      [{ endpoint: `http://127.0.0.1:${port + 1}/push/x`, keys }, /must be https/],
      [{ endpoint: "https://evil.example/push/x", keys }, /evil\.example is not a known push service/],
      [{ endpoint: "https://169.254.169.254/latest/meta-data", keys }, /not a known push service/],
      [{ endpoint: endpoint("big"), keys: { ...keys, p256dh: "A".repeat(200) } }, /keys\.p256dh is longer/],
      [{ endpoint: endpoint("big"), keys: { ...keys, auth: "A".repeat(200) } }, /keys\.auth is longer/],
      [{ endpoint: endpoint("bad"), keys: { ...keys, p256dh: Buffer.alloc(65, 4).toString("base64url") } }, /curve/],
      [{ endpoint: `${origin}/${"x".repeat(3000)}`, keys }, /endpoint/],
    ];
    for (const [input, why] of refusals) {
      const err = await errorOf(() => api.push.subscribe.mutate(input as never));
      expect(err.code, JSON.stringify(input).slice(0, 120)).toBe("BAD_PARAMS");
      expect(err.message).toMatch(why);
    }

    // A pane (an agent, or an orchestrator the person started) is no person to notify.
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-push-pane-"));
    tmp.push(dir);
    const tokenFile = path.join(dir, "token");
    await api.panes.spawn.mutate({
      argv: [
        "sh",
        "-c",
        `printf %s "$YARD_TOKEN" > ${tokenFile}.tmp && mv ${tokenFile}.tmp ${tokenFile}; exec sleep 600`,
      ],
      cwd: dir,
    });
    const paneToken = await waitFor(() => (existsSync(tokenFile) ? readFileSync(tokenFile, "utf8") : null));
    const asPane = clientWithToken(server, paneToken);
    expect(await errorOf(() => asPane.push.subscribe.mutate({ endpoint: endpoint("pane"), keys }))).toMatchObject({
      code: "FORBIDDEN",
    });
    for (const call of [() => asPane.push.key.query(), () => asPane.push.list.query()])
      expect((await errorOf(call)).code).toBe("FORBIDDEN");
    expect(stored()).toBe(before);
  });

  it("keeps each person's subscriptions their own, and deletes them when the person is removed", async () => {
    const added = await yard(server, ["--json", "user", "add", "mia", "--role", "member"]);
    expect(added.code, added.stderr).toBe(0);
    const tok = await yard(server, ["--json", "token", "create", "--user", "mia", "--name", "t"]);
    const mia = clientWithToken(server, (tok.json as { token: string }).token);
    const laptop = browser(endpoint("mia-laptop"));
    await mia.push.subscribe.mutate({ ...laptop.sub, label: "Laptop" });
    expect((await mia.push.list.query()).map((s) => s.endpoint)).toEqual([laptop.sub.endpoint]);
    expect((await api.push.list.query()).map((s) => s.endpoint)).not.toContain(laptop.sub.endpoint);
    // Another person cannot remove it.
    expect(await api.push.unsubscribe.mutate({ endpoint: laptop.sub.endpoint })).toEqual({ removed: false });
    expect(await mia.push.list.query()).toHaveLength(1);

    const removed = await yard(server, ["--json", "user", "remove", "mia"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(dbRows("SELECT id FROM PushSubscription WHERE endpoint = ?", laptop.sub.endpoint)).toEqual([]);
  });

  it("holds at most ten browsers per person: one more replaces the one unused longest", async () => {
    expect((await yard(server, ["--json", "user", "add", "ben", "--role", "member"])).code).toBe(0);
    const tok = await yard(server, ["--json", "token", "create", "--user", "ben", "--name", "t"]);
    const ben = clientWithToken(server, (tok.json as { token: string }).token);
    const ids = Array.from({ length: 11 }, (_, i) => `ben-${i}`);
    for (const id of ids) await ben.push.subscribe.mutate(browser(endpoint(id)).sub);
    const held = (await ben.push.list.query()).map((s) => s.endpoint);
    expect(held).toHaveLength(10);
    expect(held).not.toContain(endpoint("ben-0"));
    expect(held).toContain(endpoint("ben-10"));
    // The same browser again renews its row (new keys), it does not add one.
    await ben.push.subscribe.mutate(browser(endpoint("ben-10")).sub);
    expect(await ben.push.list.query()).toHaveLength(10);
  });

  it("unsubscribes the caller's own browser", async () => {
    const tablet = browser(endpoint("tablet"));
    await api.push.subscribe.mutate(tablet.sub);
    expect(await api.push.unsubscribe.mutate({ endpoint: tablet.sub.endpoint })).toEqual({ removed: true });
    expect((await api.push.list.query()).map((s) => s.endpoint)).not.toContain(tablet.sub.endpoint);
    expect(await api.push.unsubscribe.mutate({ endpoint: tablet.sub.endpoint })).toEqual({ removed: false });
  });

  it("signs with the same key after a restart; the private key is in no answer and no log line", async () => {
    const { publicKey } = await api.push.key.query();
    const [row] = dbRows<{ value: string }>("SELECT value FROM Setting WHERE key = 'push.vapid'");
    const stored = JSON.parse(row!.value) as { publicKey: string; privateKey: string };
    expect(stored.publicKey).toBe(publicKey);
    expect(Buffer.from(stored.privateKey, "base64url")).toHaveLength(32);

    await server.stop();
    server = await startTestServer({ home: server.home, env: env() });
    api = adminClient(server);
    const key = await api.push.key.query();
    expect(key.publicKey).toBe(publicKey);
    const list = await api.push.list.query();
    expect(list.map((s) => s.endpoint)).toContain(phone.sub.endpoint);
    for (const answer of [key, list]) {
      const json = JSON.stringify(answer);
      expect(json).not.toContain(stored.privateKey);
      expect(json).not.toMatch(/privateKey|p256dh|"auth"/);
    }
    expect(server.output()).not.toContain(stored.privateKey);
    // Still sending after the restart, signed with the same key.
    const before = service.to("phone").length;
    await failedTask("After the restart");
    await waitFor(() => service.to("phone").length > before, { what: "a notice after the restart" });
    expect(vapid(service.to("phone").at(-1)!.headers.authorization).k).toBe(publicKey);
  });
});
