// The setup step of a task's pane: runs the task's setup commands (its `.switchyard.json`, as the
// server recorded it at start) one by one with `sh -c`, in the worktree, in the pane's terminal
// and environment, printing each command before its output, and tells the server how far it got
// (the hook event YardSetup, posted like `yard hook`, relayed while the server restarts). It
// exits 0 when every command succeeded, after which the pane's shell execs the agent
// (server/core/repo/setup-argv.ts); otherwise with the failing command's exit code, and no agent
// starts. Usage: setup.mjs '{"commands":["npm ci", ...]}'
import { spawn } from "node:child_process";
import { postHook } from "./hook.mjs";

const EVENT = "YardSetup";
const bold = (s) => `\x1b[1m${s}\x1b[22m`;
const dim = (s) => `\x1b[2m${s}\x1b[22m`;
const red = (s) => `\x1b[31m${s}\x1b[39m`;

/** @param {Record<string, unknown>} payload */
async function progress(payload) {
  const problem = await postHook(EVENT, { hook_event_name: EVENT, ...payload }, process.env, 2000);
  if (problem) process.stderr.write(dim(`[setup] could not tell the server: ${problem}\n`));
}

/** @param {string} command @returns {Promise<{ code: number, signal: string | null }>} */
function run(command) {
  return new Promise((resolve) => {
    const child = spawn("/bin/sh", ["-c", command], { stdio: "inherit" });
    child.on("error", (e) => {
      process.stderr.write(`${red(`[setup] could not start /bin/sh: ${e.message}`)}\n`);
      resolve({ code: 127, signal: null });
    });
    child.on("exit", (code, signal) => resolve({ code: code ?? 128, signal }));
  });
}

/** @type {string[]} */
let commands;
try {
  commands = JSON.parse(process.argv[2] ?? "").commands;
  if (!Array.isArray(commands) || !commands.every((c) => typeof c === "string")) throw new Error("no commands");
} catch (e) {
  process.stderr.write(`usage: setup.mjs '{"commands":[...]}' (${/** @type {Error} */ (e).message})\n`);
  process.exit(2);
}

const total = commands.length;
const started = Date.now();
for (let i = 0; i < total; i++) {
  const command = commands[i];
  process.stdout.write(`${bold(`[setup ${i + 1}/${total}] $ ${command}`)}\n`);
  await progress({ phase: "step", step: i + 1, total, command });
  const { code, signal } = await run(command);
  if (code !== 0) {
    const how = signal ? `was killed by ${signal}` : `exited with ${code}`;
    process.stdout.write(
      `${red(bold(`[setup ${i + 1}/${total}] failed: ${command} ${how}; the agent does not start`))}\n`,
    );
    await progress({ phase: "failed", step: i + 1, total, command, exitCode: code });
    process.exit(code > 0 && code < 256 ? code : 1);
  }
}
process.stdout.write(
  `${bold(`[setup] done in ${((Date.now() - started) / 1000).toFixed(1)} s; starting the agent`)}\n`,
);
await progress({ phase: "done", step: total, total });
process.exit(0);
