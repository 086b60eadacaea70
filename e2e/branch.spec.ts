// Keeping a task branch current and choosing how it lands, in a real browser with the demo agent:
// the task page's Branch section follows main as it moves ("2 commits behind main"), "Update
// branch" merges main in (checked with git), the Merge dialog's strategy choice (a radio group,
// worked with the keyboard) lands the branch squashed, the project's default strategy is what the
// dialog starts at, and an update that conflicts with no agent to resolve it names the files and
// changes nothing. Screenshots of the Branch section and the dialog in light and dark.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { git } from "../tests/helpers/git";
import { expect, shootPart, test, type YardCli, startDemoTask } from "./fixtures";

function commitOnMain(repo: string, file: string, content: string) {
  writeFileSync(path.join(repo, file), content);
  git(repo, "add", file);
  git(repo, "commit", "-qm", `main: ${file}`);
}

async function completedTask(yard: YardCli, projectId: string, objective: string) {
  const r = await startDemoTask(yard, { project: projectId, objective });
  const id = r.json.task.id as string;
  const w = await yard(["--json", "task", "wait", id, "--until", "completed", "--timeout-ms", "90000"]);
  expect(w.code, w.stdout + w.stderr).toBe(0);
  return w.json.tasks[0] as { id: string; worktreePath: string };
}

test("Update branch follows main; the Merge dialog lands the branch squashed", async ({ page, makeRepo, yard }) => {
  test.setTimeout(120_000);
  const repo = makeRepo("yard-e2e-branch-");
  const projectId = (await yard(["--json", "project", "add", repo])).json.project.id as string;
  const t = await completedTask(
    yard,
    projectId,
    "write a.txt A\ncommit add a\nappend a.txt AA\ncommit more a\nreport completed done",
  );
  await page.goto(`/tasks/${t.id}`);
  const branch = page.getByRole("region", { name: "Branch", exact: true });
  await expect(branch.getByTestId("behind")).toHaveText(/Up to date with main/);

  // main moves: the page says so without a reload.
  commitOnMain(repo, "m1.txt", "1\n");
  commitOnMain(repo, "m2.txt", "2\n");
  const mainTip = git(repo, "rev-parse", "main");
  await expect(branch.getByTestId("behind")).toHaveText(/2 commits behind main/);
  await shootPart(page, branch, "update-branch");

  await branch.getByRole("button", { name: "Update branch" }).click();
  await expect(page.getByTestId("toast").filter({ hasText: "Branch updated with 2 commits of main" })).toBeVisible();
  await expect(branch.getByTestId("behind")).toHaveText(/Up to date with main/);
  expect(git(t.worktreePath, "log", "-1", "--format=%P").split(" ")[1]).toBe(mainTip);
  // The diff is against the new base: main's files are not the task's changes.
  await page.getByRole("tab", { name: "Changes" }).click();
  await expect(page.getByRole("main")).toContainText("a.txt");
  await expect(page.getByRole("main")).not.toContainText("m1.txt");

  // The Merge dialog: the strategy is a radio group; the arrow key moves to Squash and merge.
  await page.getByRole("button", { name: "Merge", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /Merge into main/ });
  const strategy = dialog.getByRole("group", { name: "Merge strategy" });
  const mergeCommit = strategy.getByRole("radio", { name: /Create a merge commit/ });
  await expect(mergeCommit).toBeChecked();
  await mergeCommit.focus();
  await page.keyboard.press("ArrowDown");
  await expect(strategy.getByRole("radio", { name: /Squash and merge/ })).toBeChecked();
  await shootPart(page, dialog, "merge-strategy");
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  const finished = page.getByRole("region", { name: "Finished" });
  await expect(finished.getByRole("status")).toContainText("Merged into main");
  await expect(finished).toContainText("one squashed commit");
  expect(git(repo, "log", "-1", "--format=%P", "main")).toBe(mainTip);
  expect(git(repo, "diff", "--name-only", mainTip, "main")).toBe("a.txt");
  expect(git(repo, "show", "main:a.txt")).toBe("A\nAA");
  await expect(page.getByRole("region", { name: "Branch", exact: true })).toHaveCount(0);
});

test("the dialog starts at the project's strategy; a conflicting update with no agent names the files", async ({
  page,
  makeRepo,
  yard,
}) => {
  test.setTimeout(120_000);
  const repo = makeRepo("yard-e2e-branch2-");
  const projectId = (await yard(["--json", "project", "add", repo])).json.project.id as string;
  expect((await yard(["--json", "project", "set", projectId, "--merge-strategy", "rebase"])).code).toBe(0);
  const t = await completedTask(
    yard,
    projectId,
    "write c.txt from the task\ncommit add c\nreport completed done\nexit",
  );
  const tip = git(t.worktreePath, "rev-parse", "HEAD");
  commitOnMain(repo, "c.txt", "from main\n");
  await page.goto(`/tasks/${t.id}`);
  const branch = page.getByRole("region", { name: "Branch", exact: true });
  await expect(branch.getByTestId("behind")).toHaveText(/1 commit behind main/);
  await branch.getByRole("checkbox", { name: "Rebase instead of merging" }).check();
  await branch.getByRole("button", { name: "Update branch" }).click();
  const alert = branch.getByRole("alert").filter({ hasText: "Update conflicts: nothing was changed" });
  await expect(alert.getByRole("list", { name: "Conflicted files" })).toHaveText("c.txt");
  expect(git(t.worktreePath, "rev-parse", "HEAD")).toBe(tip);
  expect(git(t.worktreePath, "status", "--porcelain")).toBe("");
  await shootPart(page, branch, "update-branch-conflict");

  await page.getByRole("button", { name: "Merge", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: /Merge into main/ });
  await expect(dialog.getByRole("radio", { name: /Rebase and merge \(project default\)/ })).toBeChecked();
  await dialog.getByRole("button", { name: "Cancel" }).click();
});
