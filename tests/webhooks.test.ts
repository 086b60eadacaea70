// Project webhooks against a real HTTP receiver: Slack-compatible JSON, HMAC-signed over the
// timestamp and body, a burst of events coalesced into one POST, only the events asked for,
// retried with backoff after a 5xx or no answer until delivered, a 4xx final, the delivery log,
// and a delivery left pending by a stopped server resumed by the next one.
import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminClient, errorOf } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers each POST with the next status of `plan` (then 200), and keeps what it got. */
function receiver() {
  const got: Received[] = [];
  let plan: number[] = [];
  const srv = http.createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      got.push({ headers: req.headers, body });
      res.writeHead(plan.shift() ?? 200).end("ok");
    });
  });
  return {
    got,
    answer: (statuses: number[]) => {
      plan = statuses;
    },
    listen: () =>
      new Promise<string>((r) =>
        srv.listen(0, "127.0.0.1", () => r(`http://127.0.0.1:${(srv.address() as AddressInfo).port}/hook`)),
      ),
    close: () => new Promise<void>((r) => srv.close(() => r())),
  };
}

const ENV = { YARD_WEBHOOK_COALESCE_MS: "1000", YARD_WEBHOOK_RETRY_MS: "150", YARD_WEBHOOK_ATTEMPTS: "3" };

let server: TestServer;
let api: ReturnType<typeof adminClient>;
const hook = receiver();
let url: string;
let repo: string;
let projectId: string;

beforeAll(async () => {
  url = await hook.listen();
  server = await startTestServer({ env: ENV });
  api = adminClient(server);
  repo = makeRepo();
  projectId = (await api.projects.add.mutate({ path: repo, name: "hooks" })).id;
}, 60_000);

afterAll(async () => {
  await server?.dispose();
  await hook.close();
  rmSync(repo, { recursive: true, force: true });
});

/** Starts tasks whose agents all report `status` together, once every one of them has started. */
async function tasksThat(status: "completed" | "failed", n: number) {
  const go = path.join(mkdtempSync(path.join(os.tmpdir(), "yard-hook-go-")), "go");
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const { task } = await api.tasks.start.mutate({
      projectId,
      title: `T${i}`,
      objective: "x",
      argv: [
        "sh",
        "-c",
        `until [ -e '${go}' ]; do sleep 0.05; done; yard task report --status ${status} --summary s${i} >/dev/null; exec sleep 600`,
      ],
    });
    ids.push(task.id);
  }
  writeFileSync(go, "");
  for (const id of ids) await api.tasks.wait.query({ id, until: "terminal", timeoutMs: 30_000 });
  rmSync(path.dirname(go), { recursive: true, force: true });
  return ids;
}

describe("project webhooks", () => {
  let secret: string;

  it("are set with the CLI (the key printed once), validated, and an admin's", async () => {
    const set = await yard(server, [
      "--json",
      "project",
      "set",
      projectId,
      "--webhook",
      url,
      "--events",
      "review,failed",
    ]);
    expect(set.code, set.stderr).toBe(0);
    const out = set.json as { webhook: { url: string; events: string[] }; webhookSecret: string };
    expect(out.webhook).toEqual({ url, events: ["review", "failed"] });
    expect(out.webhookSecret).toMatch(/^[0-9a-f]{48}$/);
    secret = out.webhookSecret;
    expect(
      await errorOf(() => api.projects.setWebhook.mutate({ id: projectId, url: "file:///etc/passwd" })),
    ).toMatchObject({
      code: "BAD_PARAMS",
    });
    expect(await errorOf(() => api.projects.setWebhook.mutate({ id: "prjnope", url }))).toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("posts a burst as one signed, Slack-compatible notice, with only the events asked for", async () => {
    const ids = await tasksThat("completed", 3);
    await waitFor(() => hook.got.length >= 1, { what: "the notice" });
    await new Promise((r) => setTimeout(r, 2 * Number(ENV.YARD_WEBHOOK_COALESCE_MS))); // a second POST would have come by now
    expect(hook.got).toHaveLength(1);
    const { headers, body } = hook.got[0]!;
    const expected = `sha256=${createHmac("sha256", secret).update(`${headers["x-switchyard-timestamp"]}.${body}`).digest("hex")}`;
    expect(headers["x-switchyard-signature-256"]).toBe(expected);
    expect(headers["content-type"]).toBe("application/json");
    const doc = JSON.parse(body) as { text: string; switchyard: { events: Array<{ kind: string; taskId: string }> } };
    expect(doc.text).toMatch(/^Switchyard · hooks: 3 updates\n/);
    for (const [i, id] of ids.entries())
      expect(doc.text).toContain(`<${server.url}/tasks/${id}|T${i}> is ready for review`);
    // In the order the tasks completed (they report together): every one of them, once.
    expect(doc.switchyard.events.map((e) => [e.kind, e.taskId]).sort()).toEqual(ids.map((id) => ["review", id]).sort());
    // Merged is not among the events asked for: merging posts nothing.
    await api.tasks.finish.mutate({ id: ids[0]!, discard: { force: true } });
    const log = await api.projects.deliveries.query({ id: projectId });
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({ status: "delivered", attempts: 1, lastStatus: 200, events: 3 });
  });

  it("retries 5xx answers with backoff until delivered (the same notice, signed again), and gives up on a 4xx", async () => {
    hook.got.length = 0;
    hook.answer([503, 500]);
    await tasksThat("failed", 1);
    await waitFor(() => hook.got.length >= 3, { what: "three attempts" });
    const [first, second, third] = hook.got;
    expect(second!.body).toBe(first!.body); // the same notice, signed again
    expect(third!.headers["x-switchyard-delivery"]).toBe(first!.headers["x-switchyard-delivery"]);
    await waitFor(async () => (await api.projects.deliveries.query({ id: projectId }))[0]!.status === "delivered", {
      what: "the delivery to be recorded",
    });
    expect((await api.projects.deliveries.query({ id: projectId }))[0]).toMatchObject({ attempts: 3, lastStatus: 200 });

    hook.got.length = 0;
    hook.answer([410]);
    await tasksThat("failed", 1);
    await waitFor(async () => (await api.projects.deliveries.query({ id: projectId }))[0]!.status === "failed", {
      what: "the 4xx to be final",
    });
    expect((await api.projects.deliveries.query({ id: projectId }))[0]).toMatchObject({
      attempts: 1,
      lastStatus: 410,
      lastError: "HTTP 410",
    });
    expect(hook.got).toHaveLength(1);
  });

  it("resumes a pending delivery after a restart", async () => {
    // Retries far apart: the delivery is still pending when the server stops.
    await server.stop();
    server = await startTestServer({ home: server.home, env: { ...ENV, YARD_WEBHOOK_RETRY_MS: "600000" } });
    api = adminClient(server);
    hook.got.length = 0;
    hook.answer([500]);
    const before = (await api.projects.deliveries.query({ id: projectId })).length;
    await tasksThat("failed", 1);
    await waitFor(
      async () => {
        const log = await api.projects.deliveries.query({ id: projectId });
        return log.length > before && log[0]!.attempts === 1;
      },
      { what: "the first attempt to be recorded" },
    );
    expect((await api.projects.deliveries.query({ id: projectId }))[0]).toMatchObject({
      status: "pending",
      lastStatus: 500,
    });
    await server.stop();
    server = await startTestServer({ home: server.home, env: ENV });
    api = adminClient(server);
    await waitFor(async () => (await api.projects.deliveries.query({ id: projectId }))[0]!.status === "delivered", {
      what: "the resumed delivery",
    });
    expect(hook.got).toHaveLength(2);
    expect(hook.got[1]!.body).toBe(hook.got[0]!.body);
  });
});
