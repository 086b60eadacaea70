// The server's own TLS (--tls-cert/--tls-key): reads the certificate and its key once at start,
// refusing with an error that names the file at fault (missing, unreadable, not PEM, a key that
// is not the certificate's), and publishes the certificate in the data dir (server-cert.pem,
// 0600) for the clients that must trust it: `yard` on this machine (server.json names the file)
// and the agents in panes (YARD_SERVER_CERT), which pin exactly that certificate.
import { createPrivateKey, X509Certificate } from "node:crypto";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import tls from "node:tls";
import { paths } from "../config";

export interface TlsMaterial {
  /** The certificate file as read: the server's certificate first, any chain after it (PEM). */
  cert: string;
  /** Its private key (PEM). */
  key: string;
  /** When the server's certificate stops being valid. */
  notAfter: Date;
}

function readPem(file: string, flag: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why =
      err.code === "ENOENT"
        ? "does not exist"
        : err.code === "EACCES"
          ? "cannot be read by this user (permission denied)"
          : err.code === "EISDIR"
            ? "is a directory, not a file"
            : `cannot be read (${err.message})`;
    throw new Error(`${flag} ${file} ${why}`);
  }
}

/** Reads and checks `--tls-cert certFile --tls-key keyFile`; throws an Error naming what is wrong. */
export function loadTls(certFile: string, keyFile: string): TlsMaterial {
  const cert = readPem(certFile, "--tls-cert");
  const key = readPem(keyFile, "--tls-key");
  if (!cert.includes("-----BEGIN CERTIFICATE-----"))
    throw new Error(`--tls-cert ${certFile} is not a PEM certificate (it has no "-----BEGIN CERTIFICATE-----" block)`);
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(cert);
  } catch (e) {
    throw new Error(`--tls-cert ${certFile} is not a valid PEM certificate (${(e as Error).message})`);
  }
  try {
    createPrivateKey(key);
  } catch (e) {
    throw new Error(`--tls-key ${keyFile} is not a PEM private key without a passphrase (${(e as Error).message})`);
  }
  try {
    tls.createSecureContext({ cert, key });
  } catch (e) {
    const m = (e as Error).message;
    throw new Error(
      /key values mismatch/i.test(m)
        ? `--tls-key ${keyFile} is not the private key of the certificate in --tls-cert ${certFile} (${m})`
        : `--tls-cert ${certFile} with --tls-key ${keyFile} cannot serve TLS (${m})`,
    );
  }
  return { cert, key, notAfter: new Date(leaf.validTo) };
}

/**
 * Writes the certificate an https server presents to the data dir (owner-only), or removes a
 * stale one when the server runs without TLS. Returns the file, or null.
 */
export function publishCert(home: string, cert: string | null): string | null {
  const file = paths(home).serverCert;
  if (cert === null) {
    rmSync(file, { force: true });
    return null;
  }
  writeFileSync(file, cert, { mode: 0o600 });
  chmodSync(file, 0o600); // an older file keeps its mode through writeFileSync
  return file;
}
