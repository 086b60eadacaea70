// The `yard` CLI: commander for parsing, the tRPC client for everything else. No business
// logic here: each command validates its flags, calls one procedure and prints the result.
import { Command, CommanderError } from "commander";
import { VERSION } from "../server/version";
import { registerAgent } from "./commands/agent";
import { registerDb } from "./commands/db";
import { registerRunner } from "./commands/runner";
import { registerGithub } from "./commands/github";
import { registerHook } from "./commands/hook";
import { registerMcp } from "./commands/mcp";
import { registerPane } from "./commands/pane";
import { registerPeople } from "./commands/people";
import { registerPlan } from "./commands/plan";
import { registerSkill } from "./commands/skill";
import { registerTask } from "./commands/task";
import { registerProject } from "./commands/project";
import { registerServer } from "./commands/server";
import { registerTemplate } from "./commands/template";
import { registerWorktree } from "./commands/worktree";
import { makeContext } from "./context";
import { terminalSafe, toCliError } from "./output";

const argv = process.argv.slice(2);
const program = new Command("yard");
const ctx = makeContext(program, argv);

program
  .description("Switchyard: run coding agents in parallel worktrees and review their work")
  .version(VERSION)
  .option("--json", "print exactly one JSON document on stdout (errors too)")
  .showHelpAfterError(false)
  .exitOverride()
  .configureOutput({
    writeErr: (s) => {
      if (!ctx.out().json) process.stderr.write(terminalSafe(s));
    },
  });

registerServer(program, ctx);
registerProject(program, ctx);
registerAgent(program, ctx);
registerPane(program, ctx);
registerTask(program, ctx);
registerGithub(program, ctx);
registerPlan(program, ctx);
registerWorktree(program, ctx);
registerTemplate(program, ctx);
registerPeople(program, ctx);
registerDb(program, ctx);
registerRunner(program, ctx);
registerSkill(program, ctx);
registerHook(program);
registerMcp(program);

for (const cmd of program.commands) applyUsageHandling(cmd);
function applyUsageHandling(cmd: Command) {
  cmd.exitOverride().configureOutput({ writeErr: (s) => !ctx.out().json && process.stderr.write(terminalSafe(s)) });
  cmd.commands.forEach(applyUsageHandling);
}

try {
  await program.parseAsync(process.argv);
} catch (e) {
  if (e instanceof CommanderError) {
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version" || e.code === "commander.help")
      process.exit(0);
    ctx.out().error({ code: "BAD_PARAMS", message: e.message.replace(/^error: /, ""), details: { usage: true } }, 2);
  }
  // Errors thrown by option parsers before any request are usage errors too.
  if (e instanceof Error && (e as { code?: string }).code === "commander.invalidArgument") {
    ctx.out().error({ code: "BAD_PARAMS", message: e.message, details: { usage: true } }, 2);
  }
  ctx.out().error(toCliError(e), 1);
}
