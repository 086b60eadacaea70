// e2e program: draws Claude Code's workspace-trust dialog (the wording core/agents/startup-dialogs.ts
// detects, from fixtures/screens/claude-trust.txt) and waits there until it is killed, like the
// real CLI before anyone answers. agents.spec.ts copies it into an executable named `claude`, which
// makes the server treat the pane as Claude Code and read its screen for start-up dialogs.
const lines = [
  "",
  "─".repeat(78),
  " Accessing workspace:",
  "",
  ` ${process.cwd()}`,
  "",
  " Quick safety check: Is this a project you created or one you trust? (Like your",
  " own code, a well-known open source project, or work from your team). If not,",
  " take a moment to review what's in this folder first.",
  "",
  " Claude Code'll be able to read, edit, and execute files here.",
  "",
  " Security guide",
  "",
  " ❯ No, exit",
  "   Yes, I trust this folder",
  "",
  " Enter to confirm · Esc to cancel",
];
process.stdout.write(`${lines.join("\r\n")}\r\n`);
process.stdin.resume();
setInterval(() => {}, 60_000);
