// A worker task whose agent is a shell that records its environment (YARD_TASK, YARD_TOKEN, …)
// and then waits: how tests get hold of a real worker pane's token.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { adminClient } from "./client";
import { waitFor } from "./wait";

type Api = ReturnType<typeof adminClient>;

/** Starts the task (`before` runs in the worktree first) and returns it with its pane's YARD_* environment. */
export async function startRecordingWorker(
  api: Api,
  repoPath: string,
  opts: { before?: string; objective?: string } = {},
) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "yard-worker-env-"));
  const envFile = path.join(dir, "env");
  try {
    const script = `${opts.before ? `${opts.before}; ` : ""}env > ${envFile}.tmp && mv ${envFile}.tmp ${envFile}; exec sleep 600`;
    const { task, pane } = await api.tasks.start.mutate({
      repoPath,
      objective: opts.objective ?? "x",
      argv: ["sh", "-c", script],
      stallMs: 300,
    });
    const env = Object.fromEntries(
      (
        await waitFor(() => (existsSync(envFile) ? readFileSync(envFile, "utf8") : null), {
          what: "the worker's environment",
        })
      )
        .split("\n")
        .filter((l) => l.startsWith("YARD_"))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]),
    ) as Record<string, string>;
    return { task, pane: pane!, env };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
