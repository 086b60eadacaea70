// Serving a team behind a reverse proxy: --public-url makes the links people get (login, invites)
// the public address and admits its Host; --trust-proxy takes the request's host from
// X-Forwarded-Host, and only the public one passes; agents keep the local address. Bad settings
// are refused before anything starts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseServeArgs } from "../server/config";
import { requestHost } from "../server/security/guard";
import { adminClient } from "./helpers/client";
import { request, trpcPost } from "./helpers/http";
import { startTestServer, type TestServer } from "./helpers/server";
import { waitFor } from "./helpers/wait";

describe("serve options", () => {
  it.each([
    [["--public-url", "https://board.example.com"], { publicUrl: "https://board.example.com" }],
    [
      ["--public-url=https://board.example.com:8443/", "--trust-proxy"],
      { publicUrl: "https://board.example.com:8443", trustProxy: true },
    ],
  ])("takes %j", (argv, expected) => expect(parseServeArgs(argv, {} as NodeJS.ProcessEnv)).toMatchObject(expected));

  it.each([
    [["--trust-proxy"], "--trust-proxy needs --public-url"],
    [["--public-url", "board.example.com"], "is not a URL"],
    [["--public-url", "ftp://board.example.com"], "must be an http:// or https:// URL"],
    [["--public-url", "https://a:b@board.example.com"], "user name or password"],
    [["--public-url", "https://board.example.com/yard"], "origin only"],
  ])("refuses %j", (argv, message) => expect(() => parseServeArgs(argv, {} as NodeJS.ProcessEnv)).toThrow(message));

  it("reads X-Forwarded-Host only with --trust-proxy", () => {
    const headers = { host: "127.0.0.1:4000", "x-forwarded-host": "board.example.com, proxy.internal" };
    expect(requestHost(headers, { trustProxy: true })).toBe("board.example.com");
    expect(requestHost(headers, { trustProxy: false })).toBe("127.0.0.1:4000");
    expect(requestHost({ host: "127.0.0.1:4000" }, { trustProxy: true })).toBe("127.0.0.1:4000");
  });
});

describe("a board behind a reverse proxy", () => {
  let server: TestServer;
  const PUBLIC = "https://board.example.com";

  beforeAll(async () => {
    server = await startTestServer({ args: ["--public-url", PUBLIC, "--trust-proxy"] });
  }, 60_000);
  afterAll(() => server?.dispose());

  const status = (headers: Record<string, string>) =>
    request(`${server.url}/api/trpc/status`, { headers: { authorization: `Bearer ${server.token}`, ...headers } });

  it("prints the login link at the public address and makes invite links there; agents keep the local one", async () => {
    await waitFor(() => server.output().includes("Open this login link"), { what: "the login link line" });
    expect(server.output()).toContain(`Open this login link once in your browser: ${PUBLIC}/login?token=`);
    const api = adminClient(server);
    const added = await api.people.add.mutate({ name: "mia", role: "member" });
    expect(added.invite.url.startsWith(`${PUBLIC}/invite?code=`)).toBe(true);
    expect((await api.status.query()).url).toBe(server.url);
  });

  it("admits the public Host and the proxy's forwarded one; refuses any other", async () => {
    expect((await status({ host: "board.example.com" })).status).toBe(200);
    expect((await status({ "x-forwarded-host": "board.example.com" })).status).toBe(200);
    const other = await status({ host: "evil.example.com" });
    expect(other.status).toBe(403);
    expect(other.body).toContain("board.example.com, 127.0.0.1 or localhost");
    expect((await status({ "x-forwarded-host": "evil.example.com" })).status).toBe(403);
  });

  it("takes the public origin for changes through the proxy, and no other", async () => {
    const headers = { authorization: `Bearer ${server.token}`, "x-forwarded-host": "board.example.com" };
    const ok = await trpcPost(server.url, "people.invite", { name: "mia" }, { ...headers, origin: PUBLIC });
    expect(ok.status).toBe(200);
    const refused = await trpcPost(
      server.url,
      "people.invite",
      { name: "mia" },
      { ...headers, origin: "https://evil.example.com" },
    );
    expect(refused.status).toBe(403);
  });
});
