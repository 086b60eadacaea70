// @ts-check
/**
 * Demo agent: talking to Switchyard. Hooks: Claude Code-shaped payloads, serialized on one
 * promise chain so they arrive in the order they were fired, fire-and-forget for the UI
 * (callers await the chain only where a later step must not overtake them). Like Claude Code's
 * two hook types, they go one of two ways (DEMO_HOOKS):
 * - `http`, the default inside a pane that gives the server's address and token: posted
 *   in-process by the code `yard hook` runs (cli/bin/hook.mjs), with no process per hook;
 * - `command`: `yard hook <Event>` run with the payload on stdin ($YARD_BIN, default `yard`
 *   on PATH), the default when the pane gives no address.
 * And `yard task report`. Hooks are off, with one dim note, outside a pane or, for command
 * hooks, without `yard`.
 */
import { spawn } from "node:child_process";
import { postHook as postHookInProcess } from "../../../cli/bin/hook.mjs";
import { CWD, HOOK_TIMEOUT_MS, REPORT_TIMEOUT_MS, SESSION_ID, TRANSCRIPT_PATH } from "./config.mjs";
import { runChild, which } from "./processes.mjs";
import { print, ui } from "./screen.mjs";
import { clean, dim, truncate } from "./text.mjs";

const YARD_NAME = process.env.YARD_BIN || "yard";
const YARD_PATH = which(YARD_NAME);
const env = process.env;
/** Hooks posted in-process (http) or through `yard hook` (command); see the top comment. */
const HOOK_MODE =
  env.DEMO_HOOKS === "command" || env.DEMO_HOOKS === "http"
    ? env.DEMO_HOOKS
    : (env.YARD_URL || env.YARD_SOCKET) && env.YARD_TOKEN
      ? "http"
      : "command";

/** @type {string | null} why hooks are off, or null when they are on */
let hooksOff = !env.YARD_PANE
  ? "hooks off: YARD_PANE is not set (not running inside Switchyard)"
  : HOOK_MODE === "command" && !YARD_PATH
    ? `hooks off: '${YARD_NAME}' not found`
    : null;
let hooksOffNoted = false;
export function noteHooksOff() {
  if (hooksOff && !hooksOffNoted) {
    hooksOffNoted = true;
    print(dim(clean(hooksOff)));
  }
}

/** @type {Promise<void>} every hook post waits for the previous one: they arrive in order */
let hookChain = Promise.resolve();
/** set once SessionEnd was queued or the agent crashed: nothing may follow */
let hooksClosed = false;

/** Settles once every hook posted so far has been posted (or has failed). */
export const hooksPosted = () => hookChain;

/** No hook may be posted from now on (SessionEnd is queued, or the agent is crashing). */
export function closeHooks() {
  hooksClosed = true;
}

/** @param {string} event @param {Record<string, unknown>} fields */
function hookPayload(event, fields) {
  return {
    session_id: SESSION_ID,
    transcript_path: TRANSCRIPT_PATH,
    cwd: CWD,
    permission_mode: "default",
    hook_event_name: event,
    ...fields,
  };
}

/**
 * Queue the hook (posted, or `yard hook <event>` with the payload on stdin). Returns the chain's promise: await it
 * where a later step must not overtake the hooks posted so far (Stop, report, exit).
 * @param {string} event @param {Record<string, unknown>} fields
 */
export function postHook(event, fields = {}) {
  if (hooksOff || hooksClosed) return hookChain;
  const payload = hookPayload(event, fields);
  hookChain = hookChain.then(() => (HOOK_MODE === "http" ? sendHook(event, payload) : runHook(event, payload)));
  return hookChain;
}

/** An http hook: posted in-process; a failure is one dim line, as a command hook's is. @param {string} event @param {Record<string, unknown>} payload */
async function sendHook(event, payload) {
  const problem = await postHookInProcess(event, payload, env, HOOK_TIMEOUT_MS);
  if (problem && ui.mode !== "exiting") print(dim(clean(`  hook ${event}: ${problem}`)));
}

/** A command hook: `yard hook <event>`. @param {string} event @param {Record<string, unknown>} payload @returns {Promise<void>} */
function runHook(event, payload) {
  if (hooksOff || !YARD_PATH) return Promise.resolve();
  const bin = YARD_PATH;
  return new Promise((resolve) => {
    let stderr = "";
    let done = false;
    /** @type {import("node:child_process").ChildProcess} */
    let child;
    try {
      // detached: own session, so closing the pane's PTY (SIGHUP) does not kill the post
      child = spawn(bin, ["hook", event], {
        cwd: CWD,
        env: process.env,
        stdio: ["pipe", "ignore", "pipe"],
        detached: true,
      });
    } catch (e) {
      hooksOff = `hooks off: cannot run '${YARD_NAME}' (${/** @type {Error} */ (e).message})`;
      noteHooksOff();
      resolve();
      return;
    }
    const timer = setTimeout(() => {
      if (ui.mode !== "exiting") print(dim(`  hook ${event}: timed out after ${HOOK_TIMEOUT_MS} ms`));
      try {
        child.kill("SIGKILL");
      } catch {
        /* gone */
      }
    }, HOOK_TIMEOUT_MS);
    /** @param {string | null} note */
    const finish = (note) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (note && ui.mode !== "exiting") print(dim(clean(note)));
      resolve();
    };
    child.on("error", (e) => {
      const code = /** @type {NodeJS.ErrnoException} */ (e).code;
      if (code === "ENOENT" || code === "EACCES") {
        hooksOff = `hooks off: cannot run '${YARD_NAME}' (${code})`;
        noteHooksOff();
        finish(null);
      } else finish(`  hook ${event}: ${e.message}`);
    });
    child.stderr?.on("data", (d) => {
      if (stderr.length < 4000) stderr += d.toString("utf8");
    });
    child.stdin?.on("error", () => {
      /* EPIPE: the hook did not read its stdin */
    });
    child.stdin?.end(JSON.stringify(payload));
    child.on("close", (code, signal) => {
      if (code === 0) return finish(null);
      const last = stderr.trim().split("\n").pop() ?? "";
      const why = signal ? `killed by ${signal}` : `exit ${code}`;
      finish(`  hook ${event}: ${why}${last ? ` — ${truncate(last, 200)}` : ""}`);
    });
  });
}

/**
 * Run `yard <argv...>` (no shell), as the `yard` directive does.
 * @param {string[]} argv
 * @returns {Promise<import("./processes.mjs").RunResult>}
 */
export function runYard(argv) {
  return runChild(YARD_PATH || YARD_NAME, YARD_NAME, argv, REPORT_TIMEOUT_MS);
}

/**
 * Run `yard task report --status <status> --summary <summary>` (argv, no shell).
 * @param {string} status @param {string} summary
 * @returns {Promise<import("./processes.mjs").RunResult>}
 */
export function runReport(status, summary) {
  const argv = ["task", "report", "--status", status, "--summary", summary];
  return runChild(YARD_PATH || YARD_NAME, YARD_NAME, argv, REPORT_TIMEOUT_MS);
}
