#!/usr/bin/env node
// Test program: a pane host of another protocol, as one an older Switchyard started would be, on
// the data dir argv[2]. It holds the host lock (host/host.pid), the secret and the control socket,
// refuses every hello with CONFLICT as a host of another contract does, and on SIGTERM writes
// host/sigterm and exits. Prints "listening" once it is.
//   node old-panehost.mjs HOME
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const dir = path.join(process.argv[2], "host");
mkdirSync(dir, { recursive: true, mode: 0o700 });
chmodSync(dir, 0o700);
writeFileSync(path.join(dir, "secret"), `${"s".repeat(43)}\n`, { mode: 0o600 });
const socket = path.join(dir, "host.sock");
rmSync(socket, { force: true });

/** One frame: u32 length of the rest, u32 header length, the JSON header (no body). */
function frame(msg) {
  const header = Buffer.from(JSON.stringify(msg));
  const out = Buffer.alloc(8 + header.length);
  out.writeUInt32BE(4 + header.length, 0);
  out.writeUInt32BE(header.length, 4);
  header.copy(out, 8);
  return out;
}

net
  .createServer((s) => {
    let buf = Buffer.alloc(0);
    s.on("error", () => {});
    s.on("data", (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length < 8 || buf.length < 4 + buf.readUInt32BE(0)) return;
      const hello = JSON.parse(buf.toString("utf8", 8, 8 + buf.readUInt32BE(4)));
      const error = { code: "CONFLICT", message: "This pane host speaks protocol 1", details: { protocol: 1 } };
      s.end(frame({ re: hello.id, ok: false, error }));
    });
  })
  .listen(socket, () => {
    writeFileSync(path.join(dir, "host.pid"), `${process.pid}\n`);
    process.stdout.write("listening\n");
  });
process.on("SIGTERM", () => {
  writeFileSync(path.join(dir, "sigterm"), "");
  process.exit(0);
});
