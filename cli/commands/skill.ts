// yard skill install: writes the Claude Code skill for orchestrators (SKILL.md) into the user's
// skills directory ($CLAUDE_CONFIG_DIR/skills, default ~/.claude/skills) or a project's
// (.claude/skills under --project DIR). Written atomically (a temp file, then a rename); no
// server is needed.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Command } from "commander";
import { orchestratorSkill } from "../../server/core/agents/guide";
import type { CliContext } from "../context";

const SKILL_NAME = "switchyard-orchestrator";

export function registerSkill(program: Command, ctx: CliContext) {
  const skill = program
    .command("skill")
    .description("The Claude Code skill that teaches an orchestrating agent to use yard");
  skill
    .command("install")
    .description(`Install the ${SKILL_NAME} skill for Claude Code (user-wide, or for one project with --project)`)
    .option("--project <dir>", "install into DIR/.claude/skills instead of your own skills directory")
    .action((o: { project?: string }) => {
      const base = o.project
        ? path.join(path.resolve(o.project), ".claude")
        : process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), ".claude");
      const dir = path.join(base, "skills", SKILL_NAME);
      mkdirSync(dir, { recursive: true });
      const file = path.join(dir, "SKILL.md");
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, orchestratorSkill(), { mode: 0o644 });
      renameSync(tmp, file);
      ctx
        .out()
        .result(
          { installed: file, skill: SKILL_NAME },
          () => `Installed the ${SKILL_NAME} skill at ${file}; Claude Code picks it up in new sessions.`,
        );
    });
}
