// The CLI's side of ready worktrees: `yard project set <id> --config <json|@file|none>` (the
// project's override of .switchyard.json; parsed here, validated by the server), `yard project
// config <id>` (what its tasks would start with now), and the ports lines of `yard task get`.
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { YardError } from "../../server/core/errors";
import type { CliContext } from "../context";
import { oneLine } from "../output";

/** --config's value: JSON text, @file, or "" / "none" to clear (null). */
export function configOption(text: string): unknown {
  if (text.trim() === "" || text.trim() === "none") return null;
  let json = text;
  if (text.startsWith("@")) {
    try {
      json = readFileSync(text.slice(1), "utf8");
    } catch (e) {
      throw new YardError("BAD_PARAMS", `Cannot read ${text.slice(1)}: ${(e as Error).message}`);
    }
  }
  try {
    return JSON.parse(json);
  } catch (e) {
    throw new YardError("BAD_PARAMS", `--config is not JSON: ${(e as Error).message}`);
  }
}

export function registerProjectConfig(project: Command, ctx: CliContext) {
  project
    .command("config <id>")
    .description("Show what the project's tasks start with: its .switchyard.json at HEAD, the override, both combined")
    .action(async (id: string) => {
      const r = await ctx.client().projects.repoConfig.query({ id });
      ctx
        .out()
        .result(r, () =>
          [
            `.switchyard.json at ${r.file.commit?.slice(0, 12) ?? "(no commit)"}: ${r.file.error ? `refused: ${oneLine(r.file.error)}` : r.file.config ? JSON.stringify(r.file.config) : "none"}`,
            `project override: ${r.override ? JSON.stringify(r.override) : "none"}`,
            `effective: ${r.effective ? JSON.stringify(r.effective) : "nothing to set up"}`,
          ].join("\n"),
        );
    });
}

/** `yard task get`'s lines about the task's ports, each with a Preview URL when something listens there. */
export async function portLines(ctx: CliContext, taskId: string): Promise<{ ports: unknown; text: string }> {
  const r = await ctx.client().tasks.ports.query({ id: taskId });
  if (!r.ports.length) return { ports: r, text: "" };
  if (r.released) return { ports: r, text: `ports: ${r.ports.map((p) => p.port).join(", ")} (released)` };
  const each = r.ports.map((p) => (p.listening ? `${p.port} (listening: Preview ${p.url})` : `${p.port}`));
  return { ports: r, text: `ports: ${each.join(", ")}` };
}
