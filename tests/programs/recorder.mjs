#!/usr/bin/env node
// Test program for panes: puts the terminal in raw mode, appends every byte it receives to the
// file named by argv[2] (so a test can prove exactly which bytes reached the PTY), optionally
// enables bracketed paste, and on Enter (\r outside a paste) may post a hook through `yard hook`.
//   node recorder.mjs FILE [--bracketed] [--on-enter EVENT] [--enter-delay MS] [--print TEXT]
import { spawn } from "node:child_process";
import { appendFileSync, writeFileSync } from "node:fs";

const [file, ...rest] = process.argv.slice(2);
const flag = (name) => rest.includes(name);
const value = (name) => (rest.includes(name) ? rest[rest.indexOf(name) + 1] : undefined);
writeFileSync(file, "");
if (process.stdin.isTTY) process.stdin.setRawMode(true);
if (flag("--bracketed")) process.stdout.write("\x1b[?2004h");
process.stdout.write(`${value("--print") ?? "recorder ready"}\r\n`);

const onEnter = value("--on-enter");
const delay = Number(value("--enter-delay") ?? 0);
let inPaste = false;

function postHook(event) {
  const child = spawn("yard", ["hook", event], { stdio: ["pipe", "ignore", "inherit"] });
  child.stdin.end(
    JSON.stringify({ session_id: "rec", transcript_path: "/dev/null", cwd: process.cwd(), hook_event_name: event }),
  );
}

process.stdin.on("data", (buf) => {
  appendFileSync(file, buf);
  const s = buf.toString("latin1");
  if (s.includes("\x1b[200~")) inPaste = true;
  if (s.includes("\x1b[201~")) inPaste = false;
  if (s.includes("\x03")) process.exit(0);
  if (onEnter && !inPaste && s.includes("\r")) setTimeout(() => postHook(onEnter), delay);
});
