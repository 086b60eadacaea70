#!/usr/bin/env node
// Test program: a hook-reporting agent whose one risky step waits on the test, so a test can make
// a hook fire at a moment of its choosing (e.g. while the server is down). It posts SessionStart;
// on Enter (a prompt submitted) UserPromptSubmit; then, once the file named by argv[2] exists,
// PreToolUse and PermissionRequest (blocked) and asks "Allow? (y/n)"; on `y` it posts
// PostToolUse, runs `yard task report --status completed --summary <argv[3]>` and posts Stop.
//   node gated-agent.mjs GATE_FILE SUMMARY
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const [gate, summary = "done"] = process.argv.slice(2);
const say = (line) => process.stdout.write(`gated: ${line}\r\n`);
const hook = (event, extra = {}) =>
  spawnSync("yard", ["hook", event], {
    input: JSON.stringify({
      session_id: "gated",
      transcript_path: "/dev/null",
      cwd: process.cwd(),
      hook_event_name: event,
      ...extra,
    }),
    stdio: ["pipe", "ignore", "inherit"],
  });

if (process.stdin.isTTY) process.stdin.setRawMode(true);
let phase = "prompt";
hook("SessionStart", { source: "startup" });
say("ready");

process.stdin.on("data", (buf) => {
  const s = buf.toString("utf8");
  // Enter is written separately, but may be read together with the paste (hooks block this loop).
  if (phase === "prompt" && s.endsWith("\r")) {
    phase = "gate";
    hook("UserPromptSubmit", { prompt: "(the task's contract)" });
    say("working, waiting for the gate");
    const poll = setInterval(() => {
      if (!existsSync(gate)) return;
      clearInterval(poll);
      hook("PreToolUse", { tool_name: "Bash", tool_input: { command: "risky" } });
      hook("PermissionRequest", { tool_name: "Bash", tool_input: { command: "risky" } });
      phase = "ask";
      say("Allow? (y/n)");
    }, 20);
  } else if (phase === "ask" && s.includes("y")) {
    phase = "done";
    hook("PostToolUse", { tool_name: "Bash", tool_input: { command: "risky" }, tool_response: { approved: true } });
    const r = spawnSync("yard", ["task", "report", "--status", "completed", "--summary", summary], {
      stdio: ["ignore", "ignore", "inherit"],
    });
    say(`reported (exit ${r.status})`);
    hook("Stop", { stop_hook_active: false, last_assistant_message: summary });
  }
});
