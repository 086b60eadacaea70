// Test program: records Claude Code trust for the given paths with the real writer, then exits.
// argv: <config file> <path>...
import { recordClaudeTrust } from "../../server/core/agents/claude-config";

const [file, ...dirs] = process.argv.slice(2);
const started = Number(process.env.START_AT ?? 0);
while (Date.now() < started) await new Promise((r) => setTimeout(r, 1)); // line up with the other writers
const r = await recordClaudeTrust(dirs, { file: file! });
process.stdout.write(`${JSON.stringify(r)}\n`);
