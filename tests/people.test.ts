// A board for a team: people added with invite links and personal tokens, every procedure gated by
// the caller's role (member < reviewer < admin), everything attributed by name (task starter,
// reviewer, comments, the audit trail), required approvals before a merge, and removal revoking a
// person's sessions and tokens at once. The real server, the real CLI, a real repository.
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "../server/api/router";
import { GATES } from "../server/api/roles";
import { adminClient, clientWithToken, errorOf } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { browserLogin, request, trpcPost } from "./helpers/http";
import { startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

let server: TestServer;
let owner: ReturnType<typeof adminClient>;
const tokens: Record<string, string> = {};
const invites: Record<string, string> = {};
const dirs: string[] = [];

/** Adds a person with the CLI, keeps their invite link, and makes them a token (as the owner, --user). */
async function addPerson(name: string, role: string) {
  const added = await yard(server, ["--json", "user", "add", name, "--role", role]);
  expect(added.code, added.stderr).toBe(0);
  invites[name] = (added.json as { invite: { url: string } }).invite.url;
  const tok = await yard(server, ["--json", "token", "create", "--user", name, "--name", "tests"]);
  expect(tok.code, tok.stderr).toBe(0);
  tokens[name] = (tok.json as { token: string }).token;
}

const as = (name: string) => clientWithToken(server, tokens[name]!);

/** A task whose agent commits a file and reports completed, then idles. */
async function completedTask(who: string, projectId: string, file: string) {
  const script = `echo ${file} > ${file}.txt && git add -A && git -c user.name=A -c user.email=a@example.com commit -qm ${file} && yard task report --status completed --summary done >/dev/null && exec sleep 600`;
  const { task } = await as(who).tasks.start.mutate({ projectId, objective: file, argv: ["sh", "-c", script] });
  await owner.tasks.wait.query({ id: task.id, until: "terminal", timeoutMs: 30_000 });
  return task.id;
}

beforeAll(async () => {
  server = await startTestServer();
  owner = adminClient(server);
  await addPerson("mia", "member");
  await addPerson("rex", "reviewer");
  await addPerson("ada", "admin");
}, 120_000);

afterAll(async () => {
  await server?.dispose();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe("roles", () => {
  const RANK = { member: 0, reviewer: 1, admin: 2 } as const;
  const procedures = Object.entries(
    (appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: string } }> } })._def.procedures,
  );

  it("gates every procedure by the person's role: below it FORBIDDEN naming the role needed, at or above it never", async () => {
    expect(procedures.length).toBeGreaterThan(80);
    const wrong: string[] = [];
    for (const [name, proc] of procedures) {
      if (name === "server.stop") continue; // allowed, it would stop the server: checked below
      const needs = GATES[name]!.person;
      for (const who of ["mia", "rex", "ada"] as const) {
        const role = who === "mia" ? "member" : who === "rex" ? "reviewer" : "admin";
        // No input at all: a call the role allows fails on its input (or succeeds), never on the gate.
        const res =
          proc._def.type === "query"
            ? await request(`${server.url}/api/trpc/${name}`, { headers: { authorization: `Bearer ${tokens[who]}` } })
            : await trpcPost(server.url, name, null, { authorization: `Bearer ${tokens[who]}` });
        const code = (JSON.parse(res.body) as { error?: { data?: { yard?: { code: string; message: string } } } }).error
          ?.data?.yard;
        const refused = code?.code === "FORBIDDEN";
        const shouldRefuse = RANK[role] < RANK[needs];
        if (refused !== shouldRefuse) wrong.push(`${name} as ${role}: ${code?.code ?? res.status}`);
        if (refused && !code!.message.includes(`needs a${needs === "admin" ? "n" : ""} ${needs}`))
          wrong.push(`${name} as ${role}: "${code!.message}" does not name ${needs}`);
      }
    }
    expect(wrong).toEqual([]);
    for (const who of ["mia", "rex"])
      expect(await errorOf(() => as(who).server.stop.mutate({ all: false }))).toMatchObject({ code: "FORBIDDEN" });
  });

  it("keeps people, tokens of others and projects an admin's; the CLI says which role is needed", async () => {
    const r = await yard(server, ["user", "add", "zed", "--role", "member"], {
      env: { YARD_TOKEN: tokens.rex!, YARD_URL: server.url },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("rex is a reviewer; people.add needs an admin");
    expect(r.stderr).toContain("[FORBIDDEN]");
    expect(await errorOf(() => as("mia").people.createToken.mutate({ user: "rex" }))).toMatchObject({
      code: "FORBIDDEN",
    });
    expect(await errorOf(() => as("mia").people.tokens.query({ all: true }))).toMatchObject({ code: "FORBIDDEN" });
    const own = await as("mia").people.tokens.query();
    expect(own.map((t) => t.person)).toEqual(["mia"]);
    await waitFor(async () => (await as("mia").people.tokens.query())[0]!.lastUsedAt !== null, {
      what: "the token's last use to be recorded",
    });
    // An admin other than the owner manages people too.
    const added = await as("ada").people.add.mutate({ name: "zed", role: "member" });
    expect(added.person).toMatchObject({ name: "zed", role: "member", createdBy: "ada" });
    expect((await as("ada").people.setRole.mutate({ name: "zed", role: "reviewer" })).role).toBe("reviewer");
    // Names are checked, the owner is fixed.
    expect(await errorOf(() => owner.people.add.mutate({ name: "owner", role: "admin" }))).toMatchObject({
      code: "BAD_PARAMS",
    });
    expect(await errorOf(() => owner.people.add.mutate({ name: "zed", role: "admin" }))).toMatchObject({
      code: "CONFLICT",
    });
    expect(await errorOf(() => owner.people.setRole.mutate({ name: "owner", role: "member" }))).toMatchObject({
      code: "BAD_PARAMS",
    });
    expect(await errorOf(() => owner.people.remove.mutate({ name: "owner" }))).toMatchObject({ code: "BAD_PARAMS" });
    const who = await as("rex").whoami.query();
    expect(who.person).toEqual({ name: "rex", role: "reviewer" });
  });
});

describe("attribution and required approvals", () => {
  let repo: string;
  let projectId: string;

  beforeAll(async () => {
    repo = makeRepo();
    dirs.push(repo);
    projectId = (await as("ada").projects.add.mutate({ path: repo })).id;
  });

  it("names who started, commented, approved and merged, on the task, the board and in the audit trail", async () => {
    const id = await completedTask("mia", projectId, "notes");
    const t = await owner.tasks.get.query({ id });
    expect(t.startedBy).toBe("mia");
    const board = await owner.board.get.query({ projectId });
    expect(
      Object.values(board)
        .flat()
        .find((c) => c.id === id),
    ).toMatchObject({ startedBy: "mia" });

    const { comment } = await as("mia").reviews.addComment.mutate({
      taskId: id,
      path: "notes.txt",
      startLine: 1,
      side: "new",
      body: "ok?",
    });
    expect(comment.author).toBe("mia");
    const { review } = await as("rex").reviews.submit.mutate({ taskId: id, verdict: "approve" });
    expect(review.reviewer).toBe("rex");
    const merged = await as("rex").tasks.finish.mutate({ id, merge: {} });
    expect(merged.task.disposition).toBe("merged");

    const audit = await yard(server, ["--json", "audit", "--user", "rex"]);
    expect(audit.code, audit.stderr).toBe(0);
    expect(audit.stdout).not.toContain("pane.");
    const lines = (audit.json as { entries: Array<{ actor: string; summary: string; taskId: string | null }> }).entries;
    expect(lines.every((e) => e.actor === "rex")).toBe(true);
    expect(lines.map((e) => e.summary)).toEqual(expect.arrayContaining([`approved task ${id}`, `merged task ${id}`]));
    const mias = await owner.audit.list.query({ user: "mia" });
    expect(mias.entries.map((e) => e.summary)).toEqual(
      expect.arrayContaining([`started task ${id} "notes"`, `added a comment on task ${id}`]),
    );
    expect((await owner.audit.list.query({ user: "mia", since: "2000-01-01T00:00:00Z" })).entries.length).toBe(
      mias.entries.length,
    );
    expect(
      (await owner.audit.list.query({ user: "mia", since: new Date(Date.now() + 60_000).toISOString() })).entries,
    ).toEqual([]);
    expect(await errorOf(() => owner.audit.list.query({ since: "yesterday-ish" }))).toMatchObject({
      code: "BAD_PARAMS",
    });
  });

  it("refuses a merge until N distinct people approved the tip it takes, not counting the starter with --no-self-approval", async () => {
    const set = await yard(
      server,
      ["--json", "project", "set", projectId, "--required-approvals", "2", "--no-self-approval"],
      {
        env: { YARD_TOKEN: tokens.ada!, YARD_URL: server.url },
      },
    );
    expect(set.code, set.stderr).toBe(0);
    expect((set.json as { project: { requiredApprovals: number; noSelfApproval: boolean } }).project).toMatchObject({
      requiredApprovals: 2,
      noSelfApproval: true,
    });
    const id = await completedTask("rex", projectId, "second");
    expect(await owner.tasks.get.query({ id })).toMatchObject({ projectId, startedBy: "rex" });
    const before = execFileSync("git", ["rev-parse", "main"], { cwd: repo, encoding: "utf8" });

    await as("rex").reviews.submit.mutate({ taskId: id, verdict: "approve" }); // the starter's: does not count
    let refused = await errorOf(() => as("ada").tasks.finish.mutate({ id, merge: {} }));
    expect(refused.code).toBe("CONFLICT");
    expect(refused.message).toContain("needs 2 approvals");
    expect(refused.message).toContain("2 more from reviewers or admins other than rex (who started it)");
    expect((await owner.tasks.get.query({ id })).approvals).toMatchObject({
      required: 2,
      have: [],
      missing: 2,
      excluded: "rex",
    });

    await as("ada").reviews.submit.mutate({ taskId: id, verdict: "approve" });
    refused = await errorOf(() => as("ada").tasks.finish.mutate({ id, merge: {} }));
    expect(refused.message).toContain("approved by ada so far");
    expect(refused.details).toMatchObject({ required: 2, approvedBy: ["ada"], missing: 1 });
    // The same person approving twice is refused; the merge still waits.
    expect(await errorOf(() => as("ada").reviews.submit.mutate({ taskId: id, verdict: "approve" }))).toMatchObject({
      code: "CONFLICT",
    });
    expect(execFileSync("git", ["rev-parse", "main"], { cwd: repo, encoding: "utf8" })).toBe(before);

    await owner.reviews.submit.mutate({ taskId: id, verdict: "approve" });
    expect((await owner.tasks.get.query({ id })).approvals).toMatchObject({
      have: ["ada", "owner"],
      missing: 0,
      why: null,
    });
    const merged = await as("ada").tasks.finish.mutate({ id, merge: {} });
    expect(merged.task.disposition).toBe("merged");
    expect(execFileSync("git", ["rev-parse", "main"], { cwd: repo, encoding: "utf8" })).not.toBe(before);
  });
});

describe("invites, tokens and removal", () => {
  it("signs a person in once with their invite link; a used or made-up code gets nothing", async () => {
    const added = await owner.people.add.mutate({ name: "ivy", role: "member" });
    const session = await browserLogin(added.invite.url);
    const me = await request(`${server.url}/api/trpc/whoami`, { headers: session.headers });
    expect(JSON.parse(me.body).result.data.person).toEqual({ name: "ivy", role: "member" });
    const again = await request(added.invite.url);
    expect(again.status).toBe(401);
    expect(again.headers["set-cookie"]).toBeUndefined();
    expect((await request(`${server.url}/invite?code=${"x".repeat(43)}`)).status).toBe(401);
  });

  it("revokes a token at once; removing a person ends their sessions, tokens and sockets", async () => {
    const made = await as("mia").people.createToken.mutate({ name: "laptop" });
    expect((await clientWithToken(server, made.token).whoami.query()).person?.name).toBe("mia");
    await as("mia").people.revokeToken.mutate({ id: made.view.id });
    expect(await errorOf(() => clientWithToken(server, made.token).whoami.query())).toMatchObject({
      code: "UNAUTHORIZED",
    });

    const added = await owner.people.add.mutate({ name: "leo", role: "reviewer" });
    const session = await browserLogin(added.invite.url);
    const token = (await owner.people.createToken.mutate({ user: "leo" })).token;
    const sock = io(server.url, {
      path: "/socket.io",
      transports: ["websocket"],
      extraHeaders: session.headers,
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      sock.on("connect", () => resolve());
      sock.on("connect_error", reject);
    });
    const removed = await yard(server, ["--json", "user", "remove", "leo"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json).toMatchObject({ sessions: 1, tokens: 1, person: { name: "leo" } });
    await waitFor(() => !sock.connected, { what: "leo's socket to close" });
    expect((await request(`${server.url}/api/trpc/whoami`, { headers: session.headers })).status).toBe(401);
    expect(await errorOf(() => clientWithToken(server, token).whoami.query())).toMatchObject({ code: "UNAUTHORIZED" });
    expect((await owner.people.list.query()).map((p) => p.name)).not.toContain("leo");
    expect((await owner.people.list.query({ removed: true })).find((p) => p.name === "leo")?.removedAt).not.toBeNull();
    sock.close();
  });

  it("keeps people and tokens across a restart, and stores only hashes", async () => {
    await server.stop();
    server = await startTestServer({ home: server.home });
    owner = adminClient(server);
    expect((await as("rex").whoami.query()).person).toEqual({ name: "rex", role: "reviewer" });
    const db = execFileSync("sh", ["-c", `cat ${server.home}/*.db* 2>/dev/null | strings`], { encoding: "utf8" });
    expect(db).not.toContain(tokens.rex!.slice(3));
  });
});
