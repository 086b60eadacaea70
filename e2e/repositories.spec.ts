// A real repository, walked end to end in the browser: a task whose repository commits a
// `.switchyard.json` sets up in its own pane (the Terminal tab shows it) and gets a port with a
// Preview link once something listens there; main moves under it in a way that conflicts, and
// "Update branch" hands the conflict to the demo agent, which resolves it in a new round; the
// branch goes to GitHub ("Open pull request", on the GitHub API stub and a bare repository as the
// remote); and the Merge dialog lands it squashed. git is checked at every step.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { Page } from "@playwright/test";
import { git } from "../tests/helpers/git";
import { type GithubStub, startGithubStub } from "../tests/stubs/github-api";
import { test as base, expect } from "./fixtures";

const TOKEN = "ghp_e2e_walk_token_7";
const REMOTE_URL = "https://github.com/acme/walk.git";
const rows = (page: Page) => page.locator("[data-testid=terminal] .xterm-rows");

const test = base.extend<{ gh: { stub: GithubStub; bare: string; dir: string } }>({
  gh: async ({}, use) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "yard-e2e-walk-"));
    const bare = path.join(dir, "walk.git");
    git(dir, "init", "-q", "--bare", bare);
    const stub = await startGithubStub({ token: TOKEN, repos: { "acme/walk": bare } });
    await use({ stub, bare, dir });
    await stub.close();
    rmSync(dir, { recursive: true, force: true });
  },
  serverEnv: async ({ gh }, use) => {
    await use({ GITHUB_API_URL: gh.stub.apiUrl, GITHUB_TOKEN: TOKEN, YARD_GITHUB_POLL_MS: "300" });
  },
});
test.use({ freshServer: true });

test("setup, Preview, Update branch with a conflict the agent resolves, a pull request, a squash merge", async ({
  page,
  makeRepo,
  yard,
  gh,
}) => {
  test.setTimeout(240_000);
  const ok = async (args: string[]) => {
    const r = await yard(["--json", ...args]);
    expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  };

  // The repository: its setup config committed, a remote on "GitHub" (the stub's bare repository).
  const repo = makeRepo("yard-e2e-walk-repo-");
  const go = path.join(gh.dir, "go"); // setup waits for it, so the page sees it run
  writeFileSync(
    path.join(repo, ".switchyard.json"),
    JSON.stringify({
      setup: ["echo installing the dependencies", `until [ -e '${go}' ]; do sleep 0.1; done`],
      ports: 1,
    }),
  );
  writeFileSync(path.join(repo, "notes.txt"), "one\n");
  git(repo, "add", ".switchyard.json", "notes.txt");
  git(repo, "commit", "-qm", "setup config and notes");
  git(repo, "remote", "add", "origin", REMOTE_URL);
  git(repo, "config", `url.${gh.bare}.insteadOf`, REMOTE_URL);
  git(repo, "-c", "protocol.file.allow=always", "push", "-q", "-u", "origin", "main");
  const projectId = (await ok(["project", "add", repo])).project.id as string;

  // The demo agent, scripted: its first turn edits notes.txt, its second resolves the conflict.
  const script = path.join(gh.dir, "walker.txt");
  writeFileSync(
    script,
    [
      "write notes.txt from the task\ncommit task notes\nreport completed wrote notes",
      "---",
      "write notes.txt resolved: task and main\ncommit resolve the update conflict\nreport completed resolved",
    ].join("\n"),
  );
  await ok([
    "agent",
    "add",
    "walker",
    "--hooks",
    "--",
    "{{node}}",
    "{{yardRoot}}/agents/demo/demo-agent.mjs",
    "--script",
    script,
  ]);
  const task = (
    await ok([
      "task",
      "start",
      "--project",
      projectId,
      "--agent",
      "walker",
      "--title",
      "Walk notes",
      "--objective",
      "follow your script",
    ])
  ).task;

  // Setup runs in the task's pane, before the agent.
  await page.goto(`/tasks/${task.id}`);
  await expect(rows(page)).toContainText("[setup 1/2] $ echo installing the dependencies");
  await expect(rows(page)).toContainText("[setup 2/2] $ until");
  await expect(page.getByRole("region", { name: "Environment" }).getByRole("status")).toContainText(
    "Setting up… setup 2/2",
  );
  writeFileSync(go, "");
  await expect(page.locator("main header [data-testid=state-badge]").first()).toHaveText("completed", {
    timeout: 60_000,
  });

  // Its port, and a Preview link once something listens there.
  const port = (await ok(["task", "get", task.id])).task.setup.ports[0] as number;
  const env = page.getByRole("region", { name: "Environment" });
  await expect(env.getByRole("list", { name: "Ports" })).toContainText(String(port));
  const listener = net.createServer((c) => {
    c.on("error", () => {});
    c.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
  });
  await new Promise<void>((r) => listener.listen(port, "127.0.0.1", r));
  try {
    await expect(env.getByRole("link", { name: `Preview port ${port}` })).toHaveAttribute(
      "href",
      `http://127.0.0.1:${port}/`,
      { timeout: 15_000 },
    );
  } finally {
    await new Promise((r) => listener.close(r));
  }

  // main changes the same line: Update branch conflicts, and the agent resolves it in round 2.
  writeFileSync(path.join(repo, "notes.txt"), "from main\n");
  git(repo, "commit", "-qam", "main: notes");
  const mainTip = git(repo, "rev-parse", "main");
  const branch = page.getByRole("region", { name: "Branch", exact: true });
  await expect(branch.getByTestId("behind")).toHaveText(/1 commit behind main/);
  await branch.getByRole("button", { name: "Update branch" }).click();
  await expect(
    page.getByTestId("toast").filter({ hasText: "Conflicts in 1 file: the agent resolves them" }),
  ).toBeVisible();
  await expect(branch.getByTestId("behind")).toHaveText(/Up to date with main/, { timeout: 60_000 });
  await expect(page.locator("main header [data-testid=state-badge]").first()).toHaveText("completed", {
    timeout: 60_000,
  });
  const wt = task.worktreePath as string;
  expect(git(wt, "show", "HEAD:notes.txt")).toBe("resolved: task and main");
  expect(git(wt, "merge-base", "--is-ancestor", mainTip, "HEAD")).toBe("");

  // To GitHub: a pull request on the stub, its branch pushed to the bare repository.
  const github = page.getByRole("region", { name: "GitHub" });
  await github.getByRole("button", { name: "Open pull request" }).click();
  await expect(github.getByRole("link", { name: "Pull request #1" })).toHaveAttribute(
    "href",
    "https://github.com/acme/walk/pull/1",
  );
  expect(git(gh.bare, "rev-parse", `refs/heads/${task.branch}`)).toBe(git(wt, "rev-parse", "HEAD"));
  expect(gh.stub.requests.find((r) => r.method === "POST")?.body).toMatchObject({
    head: task.branch,
    base: "main",
    title: "Walk notes",
  });

  // Approve, then land it squashed from the Merge dialog.
  await page.getByRole("tab", { name: "Review" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await page.getByRole("button", { name: "Merge", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /Merge into main/ });
  await dialog.getByRole("radio", { name: /Squash and merge/ }).check();
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  const finished = page.getByRole("region", { name: "Finished" });
  await expect(finished.getByRole("status")).toContainText("Merged into main");
  await expect(finished).toContainText("one squashed commit");
  expect(git(repo, "log", "-1", "--format=%P", "main")).toBe(mainTip);
  expect(git(repo, "show", "main:notes.txt")).toBe("resolved: task and main");
});
