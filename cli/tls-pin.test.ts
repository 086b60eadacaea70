// pinnedFetch / bin/tls-pin.mjs against real HTTPS servers: the board's own certificate is
// trusted whatever names it carries (a board's certificate for board.example.com, dialled at
// 127.0.0.1 by the agents on its machine), a CA-issued one is trusted as itself without its CA,
// a pinned CA still needs matching names, and any other certificate is refused.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pinnedFetch } from "./http";

let dir: string;
const file = (name: string) => path.join(dir, name);
const openssl = (args: string[]) => execFileSync("openssl", args, { stdio: ["ignore", "ignore", "pipe"] });
const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"];

/** A self-signed certificate `name`.pem (key `name`.key) for `subject` with these subjectAltNames. */
const selfSigned = (name: string, subject: string, san: string) =>
  openssl(
    ["req", "-x509", ...EC, "-subj", subject, "-addext", `subjectAltName=${san}`, "-days", "1"].concat([
      "-keyout",
      file(`${name}.key`),
      "-out",
      file(`${name}.pem`),
    ]),
  );

const servers: https.Server[] = [];
async function serve(name: string): Promise<string> {
  const srv = https.createServer(
    { cert: readFileSync(file(`${name}.pem`)), key: readFileSync(file(`${name}.key`)) },
    (_req, res) => res.end("ok"),
  );
  servers.push(srv);
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  return `https://127.0.0.1:${(srv.address() as AddressInfo).port}/`;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "yard-pin-"));
  selfSigned("board", "/CN=board.example.com", "DNS:board.example.com");
  selfSigned("other", "/CN=127.0.0.1", "IP:127.0.0.1");
  selfSigned("ca", "/CN=Team CA", "DNS:ca.invalid");
  openssl(["req", ...EC, "-subj", "/CN=board.lan", "-keyout", file("leaf.key"), "-out", file("leaf.csr")]);
  writeFileSync(file("leaf.ext"), "subjectAltName=DNS:board.lan\nbasicConstraints=CA:FALSE\n");
  openssl(
    ["x509", "-req", "-in", file("leaf.csr"), "-CA", file("ca.pem"), "-CAkey", file("ca.key")].concat([
      "-CAcreateserial",
      "-days",
      "1",
      "-extfile",
      file("leaf.ext"),
      "-out",
      file("leaf.pem"),
    ]),
  );
});
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("pinnedFetch", () => {
  it("trusts the pinned certificate itself, whatever names it carries", async () => {
    const url = await serve("board");
    expect(await (await pinnedFetch(file("board.pem"))(url)).text()).toBe("ok");
    const leaf = await serve("leaf"); // issued by a CA the client does not know
    expect(await (await pinnedFetch(file("leaf.pem"))(leaf)).text()).toBe("ok");
  });

  it("refuses any other certificate, and a pinned CA's certificate for other names", async () => {
    const url = await serve("board");
    await expect(pinnedFetch(file("other.pem"))(url)).rejects.toMatchObject({ code: "DEPTH_ZERO_SELF_SIGNED_CERT" });
    const leaf = await serve("leaf");
    await expect(pinnedFetch(file("ca.pem"))(leaf)).rejects.toMatchObject({ code: "ERR_TLS_CERT_ALTNAME_INVALID" });
  });

  it("says which file it could not use", async () => {
    const url = await serve("board");
    await expect(pinnedFetch(file("missing.pem"))(url)).rejects.toMatchObject({
      code: "ERR_YARD_SERVER_CERT",
      message: expect.stringContaining(file("missing.pem")),
    });
    await expect(pinnedFetch(file("board.key"))(url)).rejects.toThrow(/holds no PEM certificate/);
  });
});
