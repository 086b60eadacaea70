// The foundation end to end: the real server process on a random port, raw HTTP for the security
// baseline, socket.io handshakes, and the real `yard` CLI against real git repositories.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRepo } from "./helpers/git";
import { browserLogin, request, trpcPost } from "./helpers/http";
import { ROOT, SERVER_ARGV, startTestServer, type TestServer, yard } from "./helpers/server";
import { waitFor } from "./helpers/wait";

let server: TestServer;
const cleanup: string[] = [];
const tmpDir = (p: string) => {
  const d = mkdtempSync(path.join(os.tmpdir(), p));
  cleanup.push(d);
  return d;
};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

const bearer = () => ({ authorization: `Bearer ${server.token}` });

describe("security baseline", () => {
  it("keeps the token in a mode-0600 file inside a 0700 data dir", () => {
    expect(statSync(path.join(server.home, "token")).mode & 0o777).toBe(0o600);
    expect(statSync(server.home).mode & 0o777).toBe(0o700);
    expect(server.token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it("answers /api/health without a token, revealing only ok and the version", async () => {
    const res = await request(`${server.url}/api/health`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.body)).toEqual({ status: "ok", version: expect.stringMatching(/^\d+\.\d+\.\d+/) });
  });

  it("refuses API calls, pages and mutations without the token", async () => {
    expect((await request(`${server.url}/api/trpc/projects.list`)).status).toBe(401);
    expect((await request(`${server.url}/`, { headers: { accept: "text/html" } })).status).toBe(401);
    const res = await trpcPost(server.url, "projects.add", { path: ROOT });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body).error.data.yard.code).toBe("UNAUTHORIZED");
    expect(
      (
        await request(`${server.url}/api/trpc/projects.list`, {
          headers: { authorization: "Bearer wrong-token-wrong-token-wrong-token-xx" },
        })
      ).status,
    ).toBe(401);
  });

  it("refuses a foreign Host even with the token (DNS rebinding)", async () => {
    const res = await request(`${server.url}/api/trpc/projects.list`, {
      headers: { ...bearer(), host: "evil.example" },
    });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.data.yard.code).toBe("FORBIDDEN");
    const health = await request(`${server.url}/api/health`, { headers: { host: `evil.example:${server.port}` } });
    expect(health.status).toBe(403);
    for (const host of [`localhost:${server.port}`, `127.0.0.1:${server.port}`, `[::1]:${server.port}`]) {
      expect((await request(`${server.url}/api/trpc/projects.list`, { headers: { ...bearer(), host } })).status).toBe(
        200,
      );
    }
  });

  it("refuses a cross-origin POST with the token and changes nothing", async () => {
    const repo = makeRepo();
    cleanup.push(repo);
    const res = await trpcPost(
      server.url,
      "projects.add",
      { path: repo },
      { ...bearer(), origin: "http://evil.example" },
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.data.yard.code).toBe("FORBIDDEN");
    const cross = await trpcPost(
      server.url,
      "projects.add",
      { path: repo },
      { ...bearer(), "sec-fetch-site": "cross-site" },
    );
    expect(cross.status).toBe(403);
    const list = await yard(server, ["--json", "project", "list"]);
    expect(list.json.projects.map((p: { path: string }) => p.path)).not.toContain(repo);
    // The same request from the server's own origin goes through.
    const ok = await trpcPost(server.url, "projects.add", { path: repo }, { ...bearer(), origin: server.url });
    expect(ok.status).toBe(200);
    await yard(server, ["--json", "project", "remove", JSON.parse(ok.body).result.data.id]);
  });

  it("exchanges the login link for an HttpOnly SameSite=Strict cookie plus a session key that open the board", async () => {
    const bad = await request(`${server.url}/login?token=nope`, { headers: { accept: "text/html" } });
    expect(bad.status).toBe(401);
    expect(bad.headers["set-cookie"]).toBeUndefined();
    const s = await browserLogin(server.loginUrl);
    expect(s.setCookie).toMatch(/HttpOnly/);
    expect(s.setCookie).toMatch(/SameSite=Strict/);
    expect(s.setCookie).not.toContain(server.token);
    expect((await request(`${server.url}/api/trpc/projects.list`, { headers: s.headers })).status).toBe(200);
    // The cookie alone (what another server on 127.0.0.1 receives) is refused, and so is a forged one.
    expect((await request(`${server.url}/api/trpc/projects.list`, { headers: { cookie: s.cookie } })).status).toBe(401);
    expect(
      (
        await request(`${server.url}/api/trpc/projects.list`, {
          headers: { ...s.headers, cookie: `${s.cookie.split("=")[0]}=forged` },
        })
      ).status,
    ).toBe(401);
  });

  it("admits socket.io handshakes only with the token and from the server's own origin", async () => {
    const attempt = (extraHeaders: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const s = io(server.url, {
          path: "/socket.io",
          transports: ["polling"],
          extraHeaders,
          reconnection: false,
          timeout: 5000,
        });
        s.on("connect", () => {
          s.close();
          resolve("connected");
        });
        s.on("connect_error", (e) => {
          s.close();
          resolve(`refused: ${e.message}`);
        });
      });
    expect(await attempt({})).toMatch(/^refused/);
    expect(await attempt({ ...bearer(), origin: "http://evil.example" })).toMatch(/^refused/);
    expect(await attempt({ authorization: `Bearer ${server.token}x` })).toMatch(/^refused/);
    expect(await attempt({ ...bearer(), origin: server.url })).toBe("connected");
    // A live pane's own token opens no socket: live terminals and the event feed are the person's.
    const dir = tmpDir("yard-pane-token-");
    const tokenFile = path.join(dir, "token");
    const spawned = await trpcPost(
      server.url,
      "panes.spawn",
      {
        argv: [
          "sh",
          "-c",
          `printf %s "$YARD_TOKEN" > ${tokenFile}.tmp && mv ${tokenFile}.tmp ${tokenFile}; exec sleep 600`,
        ],
        cwd: dir,
      },
      { ...bearer(), origin: server.url },
    );
    expect(spawned.status, spawned.body).toBe(200);
    const paneToken = await waitFor(() => (existsSync(tokenFile) ? readFileSync(tokenFile, "utf8") : null));
    expect(paneToken).toMatch(/^yp_pane/);
    expect(await attempt({ authorization: `Bearer ${paneToken}`, origin: server.url })).toMatch(/^refused/);
  });
});

describe("yard CLI: projects and agents", () => {
  it("refuses a non-git directory with BAD_PARAMS, exit 1, and creates nothing", async () => {
    const dir = tmpDir("yard-nongit-");
    const before = await yard(server, ["--json", "project", "list"]);
    const res = await yard(server, ["--json", "project", "add", dir]);
    expect(res.code).toBe(1);
    expect(res.json).toEqual({
      error: { code: "BAD_PARAMS", message: `${dir} is not a git repository`, details: { path: dir } },
    });
    const after = await yard(server, ["--json", "project", "list"]);
    expect(after.json.projects).toEqual(before.json.projects);
    expect(existsSync(path.join(dir, ".git"))).toBe(false);
  });

  it("refuses a missing path and a bare repository", async () => {
    const missing = await yard(server, ["--json", "project", "add", "/nonexistent/switchyard-test"]);
    expect(missing.code).toBe(1);
    expect(missing.json.error.code).toBe("BAD_PARAMS");
    expect(missing.json.error.message).toMatch(/does not exist/);
    const bare = tmpDir("yard-bare-");
    execFileSync("git", ["init", "-q", "--bare", bare]);
    const res = await yard(server, ["--json", "project", "add", bare]);
    expect(res.json.error.code).toBe("BAD_PARAMS");
    expect(res.json.error.message).toMatch(/bare repository/);
  });

  it("adds a real repo (by its top level), lists it, refuses it twice, removes it", async () => {
    const repo = makeRepo();
    cleanup.push(repo);
    const added = await yard(server, ["--json", "project", "add", repo, "--name", "Demo Repo"]);
    expect(added.code).toBe(0);
    expect(added.json.project).toMatchObject({ path: repo, name: "Demo Repo", defaultTarget: "main" });
    expect(added.json.project.id).toMatch(/^prj/);

    const list = await yard(server, ["--json", "project", "list"]);
    expect(list.json.projects).toContainEqual(added.json.project);

    const sub = path.join(repo, "sub");
    execFileSync("mkdir", [sub]);
    const again = await yard(server, ["--json", "project", "add", sub]);
    expect(again.code).toBe(1);
    expect(again.json.error).toMatchObject({ code: "CONFLICT", details: { id: added.json.project.id, path: repo } });

    const text = await yard(server, ["project", "list"]);
    expect(text.stdout).toMatch(/Demo Repo/);
    expect(text.stdout).toContain(repo);

    const removed = await yard(server, ["--json", "project", "remove", added.json.project.id]);
    expect(removed.code).toBe(0);
    expect(existsSync(path.join(repo, ".git"))).toBe(true);
    const gone = await yard(server, ["--json", "project", "remove", added.json.project.id]);
    expect(gone.json.error.code).toBe("NOT_FOUND");
  });

  it("lists the built-in agent profiles", async () => {
    const res = await yard(server, ["--json", "agent", "list"]);
    const byId = Object.fromEntries(res.json.agents.map((a: { id: string }) => [a.id, a]));
    expect(Object.keys(byId)).toEqual(expect.arrayContaining(["claude-code", "codex", "shell", "demo"]));
    expect(byId["claude-code"]).toMatchObject({ supportsHooks: true, role: "worker" });
    expect(byId["claude-code"].argv).toEqual(["claude", "--settings", "{{claudeHookSettings}}"]);
    expect(byId.shell.supportsHooks).toBe(false);
    expect(byId.demo.supportsHooks).toBe(true);
  });

  it("adds a validated custom agent profile", async () => {
    const ok = await yard(server, [
      "--json",
      "agent",
      "add",
      "my-aider",
      "--role",
      "worker",
      "--env",
      "FOO=bar",
      "--",
      "aider",
      "--yes",
    ]);
    expect(ok.code).toBe(0);
    expect(ok.json.agent).toMatchObject({
      id: "my-aider",
      argv: ["aider", "--yes"],
      envNames: ["FOO"],
      builtIn: false,
      supportsHooks: false,
    });
    // Env values are write-only: neither the add reply nor the list ever carries them.
    expect(ok.json.agent.env).toBeUndefined();
    expect(ok.stdout).not.toContain("bar");
    const dup = await yard(server, ["--json", "agent", "add", "my-aider", "--", "x"]);
    expect(dup.json.error.code).toBe("CONFLICT");
    const noArgv = await yard(server, ["--json", "agent", "add", "empty-one"]);
    expect(noArgv.code).toBe(1);
    expect(noArgv.json.error.code).toBe("BAD_PARAMS");
    const badRole = await yard(server, ["--json", "agent", "add", "bad-role", "--role", "boss", "--", "x"]);
    expect(badRole.json.error.code).toBe("BAD_PARAMS");
    const badPlaceholder = await yard(server, ["--json", "agent", "add", "bad-ph", "--", "{{nope}}"]);
    expect(badPlaceholder.json.error).toMatchObject({ code: "BAD_PARAMS", details: { placeholder: "nope" } });
    const list = await yard(server, ["--json", "agent", "list"]);
    expect(list.json.agents.map((a: { id: string }) => a.id)).not.toContain("empty-one");
    expect(list.stdout).not.toContain("bar");
    expect(list.json.agents.find((a: { id: string }) => a.id === "my-aider").envNames).toEqual(["FOO"]);
  });

  it("removes a custom agent profile, never a built-in one", async () => {
    expect((await yard(server, ["--json", "agent", "add", "to-remove", "--", "sh"])).code).toBe(0);
    const removed = await yard(server, ["--json", "agent", "remove", "to-remove"]);
    expect(removed.code).toBe(0);
    expect(removed.json).toEqual({ removed: "to-remove" });
    const list = await yard(server, ["--json", "agent", "list"]);
    expect(list.json.agents.map((a: { id: string }) => a.id)).not.toContain("to-remove");
    const again = await yard(server, ["--json", "agent", "remove", "to-remove"]);
    expect(again.json.error.code).toBe("NOT_FOUND");
    const builtIn = await yard(server, ["--json", "agent", "remove", "demo"]);
    expect(builtIn.json.error.code).toBe("CONFLICT");
    expect((await yard(server, ["--json", "agent", "list"])).json.agents.map((a: { id: string }) => a.id)).toContain(
      "demo",
    );
  });

  it("reports usage errors as BAD_PARAMS with exit code 2 and one JSON document", async () => {
    const res = await yard(server, ["--json", "project", "frobnicate"]);
    expect(res.code).toBe(2);
    expect(res.json.error.code).toBe("BAD_PARAMS");
    const missingArg = await yard(server, ["--json", "project", "add"]);
    expect(missingArg.code).toBe(2);
    expect(missingArg.stdout.trim().split("\n")).toHaveLength(1);
    const text = await yard(server, ["project", "frobnicate"]);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe("");
    expect(text.stderr).toMatch(/unknown command/);
  });

  it("status works with zero configuration, and with YARD_URL/YARD_TOKEN", async () => {
    const res = await yard(server, ["--json", "status"]);
    expect(res.json).toMatchObject({ ok: true, url: server.url, loginUrl: server.loginUrl });
    const viaEnv = await yard({ home: tmpDir("yard-other-home-") }, ["--json", "status"], {
      env: { YARD_URL: server.url, YARD_TOKEN: server.token },
    });
    expect(viaEnv.json).toMatchObject({ ok: true, url: server.url });
    const wrong = await yard({ home: tmpDir("yard-other-home-") }, ["--json", "status"], {
      env: { YARD_URL: server.url, YARD_TOKEN: "x".repeat(43) },
    });
    expect(wrong.code).toBe(1);
    expect(wrong.json.error.code).toBe("UNAUTHORIZED");
  });

  it("says clearly when no server is running", async () => {
    const res = await yard({ home: tmpDir("yard-empty-home-") }, ["--json", "project", "list"]);
    expect(res.code).toBe(1);
    expect(res.json.error.code).toBe("SERVER_UNAVAILABLE");
  });
});

describe("server process", () => {
  it("fails with a one-line error naming a busy port", async () => {
    const home = tmpDir("yard-busy-");
    const res = await new Promise<{ code: number | null; out: string }>((resolve) => {
      let out = "";
      const p = spawn(process.execPath, [...SERVER_ARGV, "--port", String(server.port)], {
        cwd: ROOT,
        env: { ...process.env, YARD_HOME: home, YARD_NO_UI: "1" },
      });
      p.stdout.on("data", (d) => (out += d));
      p.stderr.on("data", (d) => (out += d));
      p.on("exit", (code) => resolve({ code, out }));
    });
    expect(res.code).toBe(1);
    expect(res.out.trim().split("\n")).toHaveLength(1);
    expect(res.out).toContain(`Port ${server.port} is already in use`);
    expect(res.out).toMatch(/--port \d+/);
  });

  it("refuses a non-loopback address without --allow-remote", async () => {
    const out = execFileSyncSafe([...SERVER_ARGV, "--host", "0.0.0.0", "--port", "0"]);
    expect(out.code).toBe(2);
    expect(out.text).toMatch(/--allow-remote/);
  });

  it("shuts down gracefully on SIGTERM and keeps its data", async () => {
    const s = await startTestServer();
    const repo = makeRepo();
    cleanup.push(repo);
    await yard(s, ["--json", "project", "add", repo]);
    expect(existsSync(path.join(s.home, "server.json"))).toBe(true);
    expect(await s.stop()).toBe(0);
    expect(existsSync(path.join(s.home, "server.json"))).toBe(false);
    const again = await startTestServer({ home: s.home });
    const list = await yard(again, ["--json", "project", "list"]);
    expect(list.json.projects.map((p: { path: string }) => p.path)).toEqual([repo]);
    await again.dispose();
  });
});

function execFileSyncSafe(args: string[]): { code: number; text: string } {
  try {
    const text = execFileSync(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, YARD_HOME: tmpDir("yard-x-"), YARD_NO_UI: "1" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 30_000,
    });
    return { code: 0, text };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, text: `${err.stdout}${err.stderr}` };
  }
}
