#!/usr/bin/env node
// Test program for the scope fuzz: a quiet agent that needs no LLM. It posts Claude-shaped hooks
// (SessionStart at launch; UserPromptSubmit then Stop for every prompt submitted, so the submit
// gate sees it take each one), records its YARD_* environment in DIR/<pane>.env (or, where DIR is
// not writable, e.g. inside the OS sandbox, in $TMPDIR/<pane>.env) for the test to borrow its
// token, and otherwise does nothing: raw mode, no echo, no output, so nothing about it changes
// unless someone calls the API.
//   node scope-agent.mjs [DIR]
import { spawnSync } from "node:child_process";
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";

const hook = (event, extra = {}) =>
  spawnSync("yard", ["hook", event], {
    input: JSON.stringify({
      session_id: `scope-${process.env.YARD_PANE}`,
      transcript_path: "/dev/null",
      cwd: process.cwd(),
      hook_event_name: event,
      ...extra,
    }),
    stdio: ["pipe", "ignore", "ignore"],
  });

if (process.stdin.isTTY) process.stdin.setRawMode(true);
hook("SessionStart", { source: "startup" });

const env = `${Object.entries(process.env)
  .filter(([k]) => k.startsWith("YARD_"))
  .map(([k, v]) => `${k}=${v}`)
  .join("\n")}\n`;
const record = (dir) => {
  const file = path.join(dir, `${process.env.YARD_PANE}.env`);
  writeFileSync(`${file}.tmp`, env);
  renameSync(`${file}.tmp`, file);
};
try {
  record(process.argv[2] || process.env.TMPDIR || "/tmp");
} catch {
  record(process.env.TMPDIR || "/tmp");
}

let busy = false;
let pending = 0;
const turn = () => {
  if (busy || pending === 0) return;
  busy = true;
  pending--;
  hook("UserPromptSubmit", { prompt: "(a prompt)" });
  hook("Stop", { stop_hook_active: false, last_assistant_message: "nothing to do" });
  busy = false;
  setImmediate(turn);
};
process.stdin.on("data", (buf) => {
  // Enter is written on its own after the text: one turn per Enter.
  for (const ch of buf.toString("latin1")) if (ch === "\r") pending++;
  turn();
});
