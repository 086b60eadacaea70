// An orchestrator pane for task tests: a plain shell pane whose own YARD_* environment the test
// borrows, so `yard` commands run exactly as they would typed inside that pane.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { adminClient } from "./client";
import { waitFor } from "./wait";

export async function orchestratorPane(api: ReturnType<typeof adminClient>, dir: string) {
  const envFile = path.join(dir, `orchestrator-${Date.now()}.env`);
  const pane = await api.panes.spawn.mutate({
    argv: ["sh", "-c", `env > ${envFile}.tmp && mv ${envFile}.tmp ${envFile}; exec sleep 3600`],
    cwd: dir,
    label: "orchestrator",
  });
  const text = await waitFor(() => {
    try {
      return readFileSync(envFile, "utf8");
    } catch {
      return null;
    }
  });
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const i = line.indexOf("=");
    if (i > 0 && line.startsWith("YARD_")) env[line.slice(0, i)] = line.slice(i + 1);
  }
  return { pane, env };
}
