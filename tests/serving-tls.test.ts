// Serving a team over the server's own TLS (--tls-cert/--tls-key, or YARD_TLS_CERT/YARD_TLS_KEY):
// the board answers only HTTPS, prints https links, keeps its session cookie Secure, admits its
// https origin; `yard` on the same machine and in the agents' panes trusts exactly the board's
// certificate (published in the data dir) with no global switch, and a client that does not
// trust it is refused. Wrong files are refused before anything starts. One server for the file.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postHook } from "../cli/bin/hook.mjs";
import { makeClient } from "../cli/connection";
import { exposureWarnings, parseServeArgs } from "../server/config";
import { SESSION_KEY_HEADER } from "../server/wire/session-key";
import { ROOT, SERVER_ARGV, startTestServer, type TestServer, yard } from "./helpers/server";
import { request } from "./helpers/http";
import { waitFor } from "./helpers/wait";

let dir: string;
let server: TestServer;
const file = (name: string) => path.join(dir, name);

/** A throwaway self-signed certificate for 127.0.0.1 (a day long), as `name`.pem and `name`.key. */
function selfSigned(name: string): void {
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-days",
      "1",
      "-keyout",
      file(`${name}.key`),
      "-out",
      file(`${name}.pem`),
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
}

/** The server started with `args`/`env` on a fresh data dir: its exit code, output and whether it wrote server.json. */
async function refusedStart(args: string[], env: Record<string, string> = {}) {
  const home = mkdtempSync(path.join(dir, "home-"));
  let out = "";
  const proc: ChildProcess = spawn(process.execPath, [...SERVER_ARGV, "--port", "0", ...args], {
    cwd: ROOT,
    env: { ...process.env, YARD_HOME: home, YARD_NO_UI: "1", YARD_TLS_CERT: "", YARD_TLS_KEY: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const timer = setTimeout(() => proc.kill("SIGTERM"), 20_000);
  const code = await new Promise<number | null>((resolve) => proc.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, out, discovery: existsSync(path.join(home, "server.json")) };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "yard-tls-"));
  selfSigned("board");
  selfSigned("other");
  server = await startTestServer({ args: ["--tls-cert", file("board.pem"), "--tls-key", file("board.key")] });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

const cert = () => readFileSync(file("board.pem"), "utf8");

describe("a board served over HTTPS", () => {
  it("answers over https only: a plain http request to its port gets no answer", async () => {
    expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const health = await request(`${server.url}/api/health`, { ca: cert() });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: "ok" });
    const plain = new Promise((resolve, reject) => {
      const req = http.get(`http://127.0.0.1:${server.port}/api/health`, (res) => resolve(res.statusCode));
      req.on("error", reject);
    });
    await expect(plain).rejects.toThrow();
  });

  it("is refused by a client that does not trust its certificate", async () => {
    const err = await fetch(`${server.url}/api/health`).then(
      () => null,
      (e: Error & { cause?: { code?: string } }) => e,
    );
    expect(err?.cause?.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    await expect(request(`${server.url}/api/health`, { ca: readFileSync(file("other.pem"), "utf8") })).rejects.toThrow(
      /self-signed certificate/,
    );
  });

  it("prints https links; the login link signs a browser in with a Secure cookie; its https origin may change things", async () => {
    await waitFor(() => server.output().includes("Open this login link"), { what: "the login link line" });
    expect(server.output()).toContain(`Switchyard is running at ${server.url} `);
    expect(server.output()).toContain(`Open this login link once in your browser: ${server.url}/login?token=`);
    const login = await request(server.loginUrl, { ca: cert() });
    expect(login.status).toBe(200);
    const setCookie = ([] as string[]).concat(login.headers["set-cookie"] ?? [])[0] ?? "";
    expect(setCookie).toMatch(/^__Host-yard-[0-9a-f]+=/);
    expect(setCookie.split(/;\s*/)).toContain("Secure");
    const key = /<meta name="yard-session-key" content="([^"]+)">/.exec(login.body)?.[1] ?? "";
    const session = { cookie: setCookie.split(";")[0]!, [SESSION_KEY_HEADER]: key };
    const invite = (origin: string) =>
      request(`${server.url}/api/trpc/people.add`, {
        ca: cert(),
        method: "POST",
        headers: { ...session, origin, "content-type": "application/json" },
        body: JSON.stringify({ name: `p${Math.random().toString(36).slice(2, 8)}`, role: "member" }),
      });
    const added = await invite(server.url);
    expect(added.status).toBe(200);
    // Invite links are at the board's own https address too.
    expect(added.body).toContain(`${server.url}/invite?code=`);
    expect((await invite(`https://evil.example.com:${server.port}`)).status).toBe(403);
  });

  it("publishes its certificate for its clients: owner-only, named in server.json", () => {
    const discovery = JSON.parse(readFileSync(path.join(server.home, "server.json"), "utf8"));
    expect(discovery).toMatchObject({ url: server.url, cert: path.join(server.home, "server-cert.pem") });
    expect(readFileSync(discovery.cert, "utf8")).toBe(cert());
    expect(statSync(discovery.cert).mode & 0o777).toBe(0o600);
  });

  it("`npm start` (--background) finds it running through its certificate instead of starting another", async () => {
    // Its own port: a launcher that missed the running server would fail to listen, not start a second one.
    const args = [
      "--background",
      "--port",
      String(server.port),
      "--tls-cert",
      file("board.pem"),
      "--tls-key",
      file("board.key"),
    ];
    const out = execFileSync(process.execPath, [...SERVER_ARGV, ...args], {
      cwd: ROOT,
      env: { ...process.env, YARD_HOME: server.home, YARD_NO_UI: "1" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(out).toContain(`Switchyard is already running at ${server.url}`);
  });

  it("`yard` on its machine trusts exactly that certificate, with verification on", async () => {
    const env = { NODE_TLS_REJECT_UNAUTHORIZED: "1", NODE_EXTRA_CA_CERTS: "" };
    const list = await yard(server, ["--json", "project", "list"], { env });
    expect(list.stderr).toBe("");
    expect(list).toMatchObject({ code: 0, json: { projects: [] } });
    const status = await yard(server, ["--json", "status"], { env });
    expect(status.json).toMatchObject({ url: server.url, loginUrl: server.loginUrl });

    // Given the address and a token without the certificate, it refuses and says what to do.
    const bare = { ...env, YARD_URL: server.url, YARD_TOKEN: server.token };
    const refused = await yard(server, ["--json", "status"], { env: bare });
    expect(refused.code).toBe(1);
    expect(refused.json.error.code).toBe("SERVER_UNAVAILABLE");
    expect(refused.json.error.message).toMatch(/TLS certificate is not trusted.*YARD_SERVER_CERT/);
    const pinnedElsewhere = { ...bare, YARD_SERVER_CERT: file("other.pem") };
    expect((await yard(server, ["--json", "status"], { env: pinnedElsewhere })).json.error.code).toBe(
      "SERVER_UNAVAILABLE",
    );
    const pinned = { ...bare, YARD_SERVER_CERT: file("board.pem") };
    expect(await yard(server, ["--json", "status"], { env: pinned })).toMatchObject({ code: 0 });
  });

  it("agents' panes get the certificate: their yard and their hooks reach the board", async () => {
    const api = makeClient({
      url: server.url,
      token: server.token,
      source: "env",
      home: server.home,
      cert: path.join(server.home, "server-cert.pem"),
    });
    const out = (name: string) => file(`pane-${name}`);
    const pane = await api.panes.spawn.mutate({
      argv: [
        "sh",
        "-c",
        `printf '%s' "$YARD_SERVER_CERT" > ${out("cert")}; yard hook YardProbe '{}' 2> ${out("hook")}; yard --json whoami > ${out("tmp")} 2> ${out("stderr")}; mv ${out("tmp")} ${out("whoami")}; sleep 30`,
      ],
      cwd: dir,
      env: { NODE_TLS_REJECT_UNAUTHORIZED: "1" },
    });
    await waitFor(() => existsSync(out("whoami")), { what: "yard whoami in the pane" });
    expect(readFileSync(out("cert"), "utf8")).toBe(path.join(server.home, "server-cert.pem"));
    expect(JSON.parse(readFileSync(out("whoami"), "utf8"))).toMatchObject({ paneId: pane.id });
    expect(readFileSync(out("stderr"), "utf8")).toBe("");
    expect(readFileSync(out("hook"), "utf8")).toBe("");
    await api.panes.kill.mutate({ id: pane.id });
  });

  it("`yard hook` without the certificate says why it could not post", async () => {
    const env = { YARD_PANE: "paneprobe1", YARD_URL: server.url, YARD_TOKEN: "yp_paneprobe1_xxxxxxxxxxxxxxxxxxxxxxxx" };
    expect(await postHook("YardProbe", {}, env, 1500)).toMatch(/not reachable.*self-signed certificate/);
    // With it, the post reaches the board (which refuses this made-up pane's token).
    expect(await postHook("YardProbe", {}, { ...env, YARD_SERVER_CERT: file("board.pem") }, 1500)).toMatch(
      /refused \(UNAUTHORIZED\)/,
    );
  });
});

describe("TLS options", () => {
  it("takes the certificate and key as flags or from the environment, both or neither", () => {
    const none = {} as NodeJS.ProcessEnv;
    expect(parseServeArgs(["--tls-cert", "c.pem", "--tls-key=k.pem"], none)).toMatchObject({
      tlsCert: "c.pem",
      tlsKey: "k.pem",
    });
    expect(
      parseServeArgs([], { YARD_TLS_CERT: "c.pem", YARD_TLS_KEY: "k.pem" } as unknown as NodeJS.ProcessEnv),
    ).toMatchObject({
      tlsCert: "c.pem",
      tlsKey: "k.pem",
    });
    expect(() => parseServeArgs(["--tls-cert", "c.pem"], none)).toThrow("--tls-cert needs --tls-key");
    expect(() => parseServeArgs([], { YARD_TLS_KEY: "k.pem" } as unknown as NodeJS.ProcessEnv)).toThrow(
      "--tls-key needs --tls-cert",
    );
  });

  it("warns loudly about clear text only when a network address is served without any TLS", () => {
    const clear = (host: string, tls: boolean, publicUrl?: string) =>
      exposureWarnings({ host, ...(publicUrl ? { publicUrl } : {}) }, tls).some((w) => w.includes("clear text"));
    expect(clear("0.0.0.0", false)).toBe(true);
    expect(clear("0.0.0.0", false, "http://board.example.com")).toBe(true);
    expect(clear("0.0.0.0", true)).toBe(false);
    expect(clear("0.0.0.0", false, "https://board.example.com")).toBe(false);
    expect(exposureWarnings({ host: "127.0.0.1" }, false)).toEqual([]);
    // Other machines' Host names are admitted only with the address they use.
    expect(exposureWarnings({ host: "0.0.0.0" }, true).join("\n")).toContain("--public-url https://NAME:PORT");
    expect(exposureWarnings({ host: "0.0.0.0", publicUrl: "https://board.example.com" }, true)).toHaveLength(1);
  });

  it("refuses to start, naming the problem, on wrong files, and writes no discovery file", async () => {
    writeFileSync(file("not-a-cert.pem"), "hello\n");
    const [half, halfEnv, missing, notCert, mismatched] = await Promise.all([
      refusedStart(["--tls-cert", file("board.pem")]),
      refusedStart([], { YARD_TLS_KEY: file("board.key") }),
      refusedStart(["--tls-cert", file("board.pem"), "--tls-key", file("missing.key")]),
      refusedStart(["--tls-cert", file("not-a-cert.pem"), "--tls-key", file("board.key")]),
      refusedStart(["--tls-cert", file("board.pem"), "--tls-key", file("other.key")]),
    ]);
    expect(half.out).toContain("--tls-cert needs --tls-key");
    expect(halfEnv.out).toContain("--tls-key needs --tls-cert");
    expect(missing.out).toContain(`--tls-key ${file("missing.key")} does not exist`);
    expect(notCert.out).toContain(`--tls-cert ${file("not-a-cert.pem")} is not a PEM certificate`);
    expect(mismatched.out).toContain(
      `--tls-key ${file("other.key")} is not the private key of the certificate in --tls-cert ${file("board.pem")}`,
    );
    for (const r of [half, halfEnv, missing, notCert, mismatched]) {
      expect(r.code).toBe(2);
      expect(r.discovery).toBe(false);
    }
  });
});
