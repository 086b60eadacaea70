// Worktrees and disk in a real browser: the Worktrees page (from the top bar) lists a task's
// worktree and a leftover with their sizes and when they were measured; Clean up shows what will
// go and removes exactly that; a tiny disk budget puts a warning on the board that links to the
// page and goes when the budget does; and "Use template" in the New task dialog fills the form
// with a saved contract that the started task then carries. Screenshots in both themes.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { formatSize } from "../server/wire/sizes";
import { expect, test, type YardCli, startDemoTask } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const du = (p: string) => Number(execFileSync("du", ["-sxB1", p], { encoding: "utf8" }).split("\t")[0]);

async function projectWithTask(yard: YardCli, repo: string, name: string) {
  const projectId = (await yard(["--json", "project", "add", repo, "--name", name])).json.project.id as string;
  const started = await startDemoTask(yard, {
    project: projectId,
    title: `${name} task`,
    objective: "write a.txt a\ncommit add a\nreport completed a",
  });
  const task = started.json.task as { id: string; worktreePath: string };
  expect((await yard(["--json", "task", "wait", task.id, "--until", "completed"])).code).toBe(0);
  return { projectId, task };
}

const row = (page: Page, p: string) => page.getByRole("table", { name: "Worktrees" }).getByRole("row", { name: p });

test("the Worktrees page: sizes, when they were measured, and Clean up removing what it showed", async ({
  page,
  server,
  yard,
  makeRepo,
}) => {
  test.setTimeout(120_000);
  const { task } = await projectWithTask(yard, makeRepo("yard-e2e-wt-"), "wt-demo");
  // A leftover in the data dir's worktree folder: no task has it.
  const stray = path.join(path.dirname(task.worktreePath), "stray-copy");
  mkdirSync(stray);
  writeFileSync(path.join(stray, "blob.bin"), Buffer.alloc(700_000, 1));
  // Last changed an hour ago (a leftover changed in the last minutes is kept: a task may be starting in it).
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(stray, hourAgo, hourAgo);
  expect(stray.startsWith(path.join(server.home, "worktrees"))).toBe(true);

  await page.goto("/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Worktrees" }).click();
  await expect(page).toHaveURL(/\/worktrees$/);
  await expect(page.getByRole("heading", { name: "Worktrees", level: 1 })).toBeVisible();

  // Sizes come from the background walk; "Measure now" asks for a fresh one.
  await page.getByRole("button", { name: "Measure now" }).click();
  await expect(row(page, stray)).toContainText("leftover");
  await expect(row(page, stray)).toContainText(formatSize(du(stray)), { timeout: 30_000 });
  await expect(row(page, task.worktreePath)).toContainText("live");
  await expect(row(page, task.worktreePath)).toContainText("wt-demo task");
  await expect(row(page, task.worktreePath)).toContainText("its task waits for review");
  await expect(page.getByText(/in 2 worktrees · measured just now/)).toBeVisible({ timeout: 30_000 });

  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, "worktrees-light.png"), fullPage: true });

  // Clean up: confirmed, and it shows what will go (and what stays, with why). In the dark theme.
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.getByRole("button", { name: "Clean up (1)" }).click();
  const dialog = page.getByRole("dialog", { name: "Clean up worktrees" });
  const going = dialog.getByRole("region", { name: "Will be removed" });
  await expect(going).toContainText("Will remove 1 worktree");
  await expect(going).toContainText(stray);
  await expect(going).not.toContainText(task.worktreePath);
  await dialog.getByText("Kept (1)").click();
  await expect(dialog).toContainText(`${task.worktreePath}: its task waits for review`);
  await page.screenshot({ path: path.join(SCREENSHOTS, "worktrees-clean-up-dark.png") });
  await dialog.getByRole("button", { name: "Remove 1 worktree" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Removed 1 worktree")).toBeVisible();
  await expect(row(page, stray)).toHaveCount(0);
  await expect(row(page, task.worktreePath)).toBeVisible();
  expect(existsSync(stray)).toBe(false);
  expect(existsSync(task.worktreePath)).toBe(true);
  await page.getByRole("button", { name: "Light theme" }).click();

  // Nothing left to remove: the button says so.
  await page.getByRole("button", { name: "Clean up" }).click();
  await expect(dialog.getByRole("button", { name: "Nothing to remove" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
});

test("a tiny disk budget warns on the board and links to the Worktrees page", async ({ page, yard, makeRepo }) => {
  test.setTimeout(120_000);
  const { projectId } = await projectWithTask(yard, makeRepo("yard-e2e-budget-"), "budget-demo");
  await page.goto(`/?project=${projectId}`);
  const banner = page.getByRole("alert").filter({ hasText: "over the disk budget" });
  await expect(banner).toHaveCount(0);

  // The worktrees take more than 1 KB: once the budget says so, the open board warns (a journal event).
  expect((await yard(["--json", "worktree", "budget", "1KB"])).code).toBe(0);
  await expect(banner).toBeVisible({ timeout: 30_000 });
  await expect(banner).toContainText("more than the 1.0 KB budget");
  await page.screenshot({ path: path.join(SCREENSHOTS, "board-disk-budget.png") });
  await banner.getByRole("link", { name: "Review worktrees" }).click();
  await expect(page).toHaveURL(/\/worktrees$/);
  await expect(page.getByRole("form", { name: "Disk budget" })).toContainText("1.0 KB (saved here)");

  // Raised from the page: the warning goes.
  await page.getByRole("textbox", { name: "Disk budget" }).fill("lots");
  await page.getByRole("button", { name: "Save budget" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Not a size" })).toBeVisible();
  await page.getByRole("textbox", { name: "Disk budget" }).fill("50GB");
  await page.getByRole("button", { name: "Save budget" }).click();
  await expect(page.getByRole("form", { name: "Disk budget" })).toContainText("50.0 GB (saved here)");
  await page.goto(`/?project=${projectId}`);
  await expect(page.getByRole("heading", { name: "budget-demo" })).toBeVisible();
  await expect(banner).toHaveCount(0);
  expect((await yard(["--json", "worktree", "budget", "off"])).code).toBe(0);
});

test("New task: Use template fills the form, and the task starts with the template's contract", async ({
  page,
  yard,
  makeRepo,
}) => {
  test.setTimeout(120_000);
  const repo = makeRepo("yard-e2e-tpl-");
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "tpl-demo"])).json.project.id as string;
  const added = await yard([
    "--json",
    "template",
    "add",
    "--project",
    projectId,
    "--name",
    "Notes file",
    "--title",
    "Write the notes",
    "--objective",
    "write notes.txt from a template\nreport completed notes",
    "--constraint",
    "only notes.txt",
    "--constraint",
    "one line",
    "--accept",
    "notes.txt exists",
    "--output-format",
    "a summary",
    "--label",
    "docs",
    "--agent",
    "demo",
  ]);
  expect(added.code, added.stderr).toBe(0);

  await page.goto(`/?project=${projectId}`);
  await page.getByRole("button", { name: "New task" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Title").fill("something else");
  await dialog.getByLabel("Use template").selectOption({ label: "Notes file" });
  await expect(dialog.getByLabel("Title")).toHaveValue("Write the notes");
  await expect(dialog.getByLabel("Objective")).toHaveValue("write notes.txt from a template\nreport completed notes");
  await expect(dialog.getByLabel("Constraints 1")).toHaveValue("only notes.txt");
  await expect(dialog.getByLabel("Constraints 2")).toHaveValue("one line");
  await expect(dialog.getByLabel("Acceptance criteria 1")).toHaveValue("notes.txt exists");
  await expect(dialog.getByLabel("Expected output format")).toHaveValue("a summary");
  await expect(dialog.getByLabel("Label")).toHaveValue("docs");
  await expect(dialog.getByLabel("Agent profile")).toHaveValue("demo");

  await dialog.getByRole("button", { name: "Start task" }).click();
  await expect(page).toHaveURL(/\/tasks\/tsk/, { timeout: 30_000 });
  const id = new URL(page.url()).pathname.split("/").pop()!;
  const task = (await yard(["--json", "task", "get", id])).json.task;
  expect(task).toMatchObject({
    title: "Write the notes",
    label: "docs",
    agent: "demo",
    contract: {
      objective: "write notes.txt from a template\nreport completed notes",
      constraints: ["only notes.txt", "one line"],
      acceptanceCriteria: ["notes.txt exists"],
      outputFormat: "a summary",
    },
  });
});
