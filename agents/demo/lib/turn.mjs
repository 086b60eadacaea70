// @ts-check
/**
 * Demo agent: running one submitted prompt as a turn. Echoes the prompt, posts
 * UserPromptSubmit, executes its steps in order (each tool action wrapped in PreToolUse and
 * PostToolUse / PostToolUseFailure hooks, permission questions answered with y/n), and ends
 * with the turn's last message and the Stop hook, or ends the session (crash, exit).
 */
import path from "node:path";
import { ARGS, CWD, NOTIFICATION_TITLE, UNTRACKED_CONTENT } from "./config.mjs";
import { appendLine, commitAll, writeFile } from "./actions.mjs";
import { HELP_LINES, parsePrompt } from "./directives.mjs";
import { scriptedPrompt } from "./script.mjs";
import { crash, shutdown } from "./exit.mjs";
import { exiting, print, setActivity, setMode, ui } from "./screen.mjs";
import { bold, clean, dim, green, red, shq, yellow } from "./text.mjs";
import { logTranscript } from "./transcript.mjs";
import { hooksPosted, postHook, runReport, runYard } from "./yard.mjs";

/** JSON results of `yard … => NAME` calls, kept for the session: `{NAME.a.b}` reads them. */
const saved = new Map();

/**
 * Replace `{NAME.path}` in an argument with the value saved under NAME (a string as it is,
 * anything else as JSON). Unknown names or paths are an error.
 * @param {string} arg
 * @returns {{ ok: true, value: string } | { ok: false, error: string }}
 */
function substitute(arg) {
  let error = "";
  const value = arg.replace(/\{([A-Za-z_][A-Za-z0-9_]*)((?:\.[A-Za-z0-9_-]+)*)\}/g, (whole, name, path) => {
    if (name === "env") {
      const v = process.env[path.slice(1)];
      if (v === undefined) error ||= `${path.slice(1)} is not set in the environment`;
      return v ?? whole;
    }
    if (!saved.has(name)) {
      error ||= `no saved value ${name} (save one with => ${name})`;
      return whole;
    }
    /** @type {unknown} */
    let v = saved.get(name);
    for (const key of path.split(".").filter(Boolean)) {
      v = v !== null && typeof v === "object" ? /** @type {Record<string, unknown>} */ (v)[key] : undefined;
    }
    if (v === undefined) {
      error ||= `${name}${path} is not in the saved value`;
      return whole;
    }
    return typeof v === "string" ? v : JSON.stringify(v);
  });
  return error ? { ok: false, error } : { ok: true, value };
}

/** @param {number} ms */
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

let toolSeq = 0;

/**
 * Run one tool call with PreToolUse / PostToolUse (or PostToolUseFailure) hooks around it.
 * @param {string} toolName
 * @param {Record<string, unknown>} toolInput
 * @param {string} label transcript label, e.g. "Write(notes.txt)"
 * @param {(toolUseId: string) => Promise<import("./actions.mjs").ToolResult>} fn
 */
async function tool(toolName, toolInput, label, fn) {
  toolSeq++;
  const toolUseId = `toolu_demo_${String(toolSeq).padStart(4, "0")}`;
  print(`${green("●")} ${bold(clean(label))}`);
  setActivity(label);
  postHook("PreToolUse", { tool_name: toolName, tool_input: toolInput, tool_use_id: toolUseId });
  const t0 = Date.now();
  const r = await fn(toolUseId);
  if (exiting()) return false; // the user quit meanwhile: SessionEnd is already on its way
  print(dim("  ⎿  ") + (r.ok ? clean(r.line) : red(clean(r.line))));
  if (r.ok) {
    postHook("PostToolUse", {
      tool_name: toolName,
      tool_input: toolInput,
      tool_response: r.response,
      tool_use_id: toolUseId,
      duration_ms: Date.now() - t0,
    });
  } else {
    postHook("PostToolUseFailure", {
      tool_name: toolName,
      tool_input: toolInput,
      tool_use_id: toolUseId,
      error: r.error,
    });
  }
  return r.ok;
}

/** @type {((allowed: boolean) => void) | null} */
let pendingAsk = null;

/** Answers the open permission question, if there is one. @param {boolean} allowed */
export function answerAsk(allowed) {
  if (!pendingAsk) return;
  pendingAsk(allowed);
  pendingAsk = null;
}

/**
 * Run one submitted prompt as a turn.
 * @param {string} prompt
 */
export async function runTurn(prompt) {
  const steps = parsePrompt(scriptedPrompt(ARGS.script, prompt));
  if (steps.some((s) => s.kind === "ignore")) return; // nothing at all: a stalled agent

  const promptLines = prompt.split("\n");
  print("", ...promptLines.map((l, i) => (i === 0 ? `${bold(">")} ` : "  ") + dim(clean(l))));
  setMode("working", "thinking");
  postHook("UserPromptSubmit", { prompt });
  logTranscript({ type: "user", message: { role: "user", content: prompt } });

  /** @type {string[]} */
  const done = [];
  /** @type {string | null} */
  let lastEcho = null;

  for (const step of steps) {
    if (ui.mode === "exiting") return; // Ctrl-C twice / Ctrl-D mid-turn
    switch (step.kind) {
      case "text": {
        lastEcho = `Got it: ${step.text}`;
        print(`${green("●")} ${clean(lastEcho)}`);
        break;
      }
      case "invalid": {
        print(yellow(`⚠ ${clean(step.error)}`));
        done.push(`Skipped an invalid directive (${step.error}).`);
        break;
      }
      case "write":
      case "untracked": {
        const abs = path.resolve(CWD, step.path);
        const content = step.kind === "write" ? `${step.text}\n` : UNTRACKED_CONTENT;
        const shown = step.kind === "write" ? `Wrote 1 line to ${step.path}` : `Created ${step.path} (untracked file)`;
        const ok = await tool("Write", { file_path: abs, content }, `Write(${step.path})`, async () =>
          writeFile(abs, content, shown),
        );
        done.push(
          ok
            ? step.kind === "write"
              ? `Wrote ${step.path}.`
              : `Created untracked file ${step.path}.`
            : `Failed to write ${step.path}.`,
        );
        break;
      }
      case "append": {
        const abs = path.resolve(CWD, step.path);
        const line = `${step.text}\n`;
        const ok = await tool(
          "Edit",
          { file_path: abs, old_string: "", new_string: line },
          `Edit(${step.path})`,
          async () => appendLine(abs, line, `Appended 1 line to ${step.path}`),
        );
        done.push(ok ? `Appended a line to ${step.path}.` : `Failed to append to ${step.path}.`);
        break;
      }
      case "ask": {
        const q = step.question;
        const input = { command: q, description: q };
        const ok = await tool("Bash", input, `Bash(${q})`, async () => {
          print(yellow("  ?  ") + clean(q) + yellow("  Allow? (y/n)"));
          postHook("PermissionRequest", {
            tool_name: "Bash",
            tool_input: input,
            permission_suggestions: [
              {
                type: "addRules",
                rules: [{ toolName: "Bash", ruleContent: q }],
                behavior: "allow",
                destination: "localSettings",
              },
            ],
          });
          postHook("Notification", {
            message: `${ARGS.name} needs your permission to use Bash`,
            title: NOTIFICATION_TITLE,
            notification_type: "permission_prompt",
          });
          setMode("asking");
          const allowed = await new Promise((resolve) => {
            pendingAsk = resolve;
          });
          pendingAsk = null;
          setMode("working", `Bash(${q})`);
          return allowed
            ? { ok: true, response: { stdout: "", stderr: "", interrupted: false, approved: true }, line: "Allowed" }
            : { ok: false, error: "The user denied this action", line: "Denied by user" };
        });
        done.push(ok ? `Asked "${q}": allowed.` : `Asked "${q}": denied, skipped it.`);
        break;
      }
      case "sleep": {
        print(`${green("●")} Working for ${step.ms} ms`);
        setActivity(`sleep ${step.ms} ms`);
        await delay(step.ms);
        done.push(`Worked for ${step.ms} ms.`);
        break;
      }
      case "print": {
        print(clean(step.text));
        done.push("Printed 1 line.");
        break;
      }
      case "lines": {
        const ls = [];
        for (let i = 1; i <= step.n; i++) ls.push(`line ${i}`);
        if (ls.length) print(...ls);
        done.push(`Printed ${step.n} lines.`);
        break;
      }
      case "help": {
        print(...HELP_LINES.map((l) => clean(l)));
        done.push("Listed the directives.");
        break;
      }
      case "report": {
        const argv = ["task", "report", "--status", step.status, "--summary", step.summary];
        const command = ["yard", ...argv].map(shq).join(" ");
        const input = { command, description: "Report the task result to Switchyard" };
        /** @type {number} */
        let exitCode = 0;
        await tool("Bash", input, `Bash(${command})`, async () => {
          await hooksPosted(); // everything posted so far reaches the server before the report
          const r = await runReport(step.status, step.summary);
          exitCode = r.code;
          const outLines = (r.stdout + r.stderr)
            .split("\n")
            .map((l) => l.trimEnd())
            .filter(Boolean)
            .slice(-5);
          for (const l of outLines) print(dim(`     ${clean(l)}`));
          const line = `exit ${r.code}${r.error ? ` (${r.error})` : ""}`;
          return r.code === 0
            ? { ok: true, response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, exit_code: 0 }, line }
            : { ok: false, error: r.error ?? `exit code ${r.code}`, line };
        });
        done.push(`Ran yard task report --status ${step.status} (exit ${exitCode}).`);
        break;
      }
      case "yard": {
        /** @type {string[]} */
        const argv = [];
        let bad = "";
        for (const a of step.args) {
          const r = substitute(a);
          if (r.ok) argv.push(r.value);
          else bad ||= r.error;
        }
        const command = ["yard", ...(bad ? step.args : argv)].map(shq).join(" ");
        let exitCode = 0;
        await tool("Bash", { command, description: "Run a Switchyard command" }, `Bash(${command})`, async () => {
          if (bad) {
            exitCode = 2;
            return { ok: false, error: bad, line: bad };
          }
          await hooksPosted(); // what the server sees next must not overtake the hooks so far
          const r = await runYard(argv);
          exitCode = r.code;
          if (step.save && r.code === 0) {
            try {
              saved.set(step.save, JSON.parse(r.stdout));
            } catch {
              saved.set(step.save, r.stdout.trim());
            }
          }
          for (const l of (r.stdout + r.stderr)
            .split("\n")
            .map((x) => x.trimEnd())
            .filter(Boolean)
            .slice(-5))
            print(dim(`     ${clean(l)}`));
          const line = `exit ${r.code}${r.error ? ` (${r.error})` : ""}`;
          return r.code === 0
            ? { ok: true, response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, exit_code: 0 }, line }
            : { ok: false, error: r.error ?? `exit code ${r.code}`, line };
        });
        done.push(`${`Ran yard ${step.args[0] ?? ""} ${step.args[1] ?? ""}`.trimEnd()} (exit ${exitCode}).`);
        break;
      }
      case "commit": {
        const message = step.message;
        const input = {
          command: `git add -A && git commit -m ${shq(message)}`,
          description: "Commit all changes in the working tree",
        };
        /** @type {string} */
        let summary = "";
        await tool("Bash", input, "Bash(git commit)", async () => {
          const r = await commitAll(message);
          summary = r.ok ? `Committed ${r.sha}: ${message}.` : `Did not commit (${r.line}).`;
          for (const l of r.detail) print(dim(`     ${clean(l)}`));
          return r.ok
            ? {
                ok: true,
                response: { stdout: r.stdout, stderr: r.stderr, interrupted: false, exit_code: 0 },
                line: `Committed ${r.sha}: ${message}`,
              }
            : { ok: false, error: r.error, line: r.line };
        });
        if (summary) done.push(summary);
        break;
      }
      case "noreport":
        break;
      case "crash":
        await crash(step.code);
        return;
      case "exit":
        await shutdown(0, "prompt_input_exit");
        return;
      case "ignore": // handled above
        break;
    }
  }

  if (ui.mode === "exiting") return;
  const message = done.length > 0 ? done.join(" ") : (lastEcho ?? "Nothing to do.");
  if (done.length > 0 || !lastEcho) print(`${green("●")} ${clean(message)}`);
  logTranscript({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text: message }] } });
  setActivity("finishing");
  // the Stop hook goes after every earlier hook of the turn; "ready" shows once it is posted
  await postHook("Stop", { stop_hook_active: false, last_assistant_message: message });
}
