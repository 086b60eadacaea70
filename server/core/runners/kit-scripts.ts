// The node scripts Switchyard runs on a runner, each given to `node -e` in base64 (its alphabet
// passes any remote shell unchanged: no quoting of code), reading its input from stdin. They use
// only Node's built-ins. Where: $XDG_DATA_HOME/switchyard-runner (default ~/.local/share/…).
const BASE = `const base = require("path").join(process.env.XDG_DATA_HOME || require("path").join(require("os").homedir(), ".local/share"), "switchyard-runner");`;

/** Prints {node, modules, arch, platform, base, kits: [installed kit names]} as JSON. */
const PROBE = `${BASE}
const fs = require("fs");
let kits = [];
try { kits = fs.readdirSync(base).filter((n) => /^[0-9A-Za-z.+-]+$/.test(n) && fs.existsSync(require("path").join(base, n, "panehost.mjs"))); } catch {}
process.stdout.write(JSON.stringify({ node: process.version, modules: process.versions.modules, arch: process.arch, platform: process.platform, base, kits }));`;

/**
 * Unpacks a kit from stdin into <base>/<name>: into <name>.partial first (refusing any path that
 * climbs out), then renamed into place, so a kit dir is whole or absent. Prints {dir, files, bytes}.
 */
const UNPACK = `${BASE}
const fs = require("fs"), path = require("path");
const name = process.argv[1];
if (!/^[0-9A-Za-z.+-]+$/.test(name || "")) { console.error("bad kit name"); process.exit(2); }
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const buf = Buffer.concat(chunks);
  const dir = path.join(base, name), tmp = dir + ".partial";
  fs.rmSync(tmp, { recursive: true, force: true });
  let at = 0, files = 0, bytes = 0;
  for (;;) {
    const nl = buf.indexOf(10, at);
    if (nl < 0) { console.error("truncated kit"); process.exit(3); }
    const h = JSON.parse(buf.subarray(at, nl).toString("utf8"));
    at = nl + 1;
    if (h.end) break;
    const rel = path.normalize(h.path);
    if (path.isAbsolute(rel) || rel.startsWith("..")) { console.error("bad path " + h.path); process.exit(4); }
    const out = path.join(tmp, rel);
    fs.mkdirSync(path.dirname(out), { recursive: true, mode: 0o700 });
    fs.writeFileSync(out, buf.subarray(at, at + h.size), { mode: h.mode & 0o755 });
    at += h.size; files++; bytes += h.size;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(tmp, dir);
  process.stdout.write(JSON.stringify({ dir, files, bytes }));
});`;

const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

/** ssh's remote command running `script` with node (extra words become its argv). */
function nodeCommand(script: string, args: string[] = []): string[] {
  return ["node", "-e", `"eval(Buffer.from('${b64(script)}','base64').toString())"`, ...args];
}

export const probeCommand = () => nodeCommand(PROBE);
export const unpackCommand = (kitName: string) => nodeCommand(UNPACK, [kitName]);
