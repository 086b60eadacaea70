// @ts-check
// Trusting one board's certificate: the TLS options under which `yard` (cli/http.ts), `yard hook`
// (hook.mjs) and `npm start`'s check for a running server (server/background.ts) connect to a
// board served over HTTPS. They trust exactly the certificates of one PEM file: the board's own,
// which the server publishes in its data dir (server-cert.pem, named in server.json) and hands to
// its panes as YARD_SERVER_CERT. Nothing else is trusted for that connection (no system CA), and
// verification is never turned off. The certificate presented must chain to one of the file's
// (a self-signed one to itself; a pinned intermediate or leaf is a trust anchor too); when it is
// one of them, its names need not match the address dialled (a board with a certificate for
// board.example.com is also reached at 127.0.0.1 by the agents on its machine), otherwise they
// must. node:tls is loaded only when a board is served over HTTPS (the loopback default is not).
import { readFileSync } from "node:fs";

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+?)-----END CERTIFICATE-----/g;

/** The code of the error pinnedTls rejects with (the CLI reports it as the board being unreachable). */
export const PIN_ERROR = "ERR_YARD_SERVER_CERT";

/**
 * TLS connection options that trust exactly the certificates in the PEM file `file`. Rejects
 * with an Error (code PIN_ERROR) naming the file when it cannot be read or holds no certificate.
 * @param {string} file
 * @returns {Promise<{ ca: string[], allowPartialTrustChain: true, checkServerIdentity: (host: string, cert: import("node:tls").PeerCertificate) => Error | undefined }>}
 */
export async function pinnedTls(file) {
  /** @param {string} message */
  const fail = (message) => Object.assign(new Error(message), { code: PIN_ERROR });
  let pem;
  try {
    pem = readFileSync(file, "utf8");
  } catch (e) {
    throw fail(`cannot read the board's certificate ${file} (${/** @type {Error} */ (e).message})`);
  }
  const blocks = [...pem.matchAll(PEM_CERTIFICATE)];
  if (!blocks.length) throw fail(`the board's certificate ${file} holds no PEM certificate`);
  const { checkServerIdentity } = await import("node:tls");
  const pinned = blocks.map((m) => Buffer.from((m[1] ?? "").replace(/\s+/g, ""), "base64"));
  return {
    ca: blocks.map((m) => m[0]),
    allowPartialTrustChain: true,
    checkServerIdentity: (host, cert) =>
      pinned.some((der) => der.equals(cert.raw)) ? undefined : checkServerIdentity(host, cert),
  };
}
