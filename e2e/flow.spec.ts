// The whole board-and-review flow in a real browser with the demo agent: two tasks created from
// the "New task" dialog, a live terminal answering a permission prompt by typing, the task
// reaching Review, line comments on a range, request changes → round 2 (its prompt carries the
// comment) → approve, merge (checked with git), discard (worktree gone, branch kept), a conflict
// with its files listed, and a reload at each step showing the same state. A card shows its diff
// size and how long it has been in its column; a finished task shows what finishing did and no
// action that can no longer act. Saves screenshots of the board and the task page (Changes,
// Review, finished) in light and dark.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator, Page } from "@playwright/test";
import { git } from "../tests/helpers/git";
import { expect, shootPart, test, startDemoTask } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const rows = (page: Page) => page.locator("[data-testid=terminal] .xterm-rows");
const column = (page: Page, c: string) => page.locator(`section[data-column="${c}"]`);

async function theme(page: Page, t: "light" | "dark") {
  await page.getByRole("button", { name: t === "dark" ? "Dark theme" : "Light theme" }).click();
  if (t === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
}

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const t of ["light", "dark"] as const) {
    await theme(page, t);
    await page.waitForTimeout(400); // colour transitions settle
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${t}.png`), fullPage: false });
  }
  await theme(page, "light");
}

/** Screenshots of a dialog in both themes: the theme is switched with the dialog closed (it covers the switch). */
async function shootDialog(page: Page, name: string, open: () => Promise<Locator>) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const t of ["light", "dark"] as const) {
    await theme(page, t);
    const dialog = await open();
    await page.waitForTimeout(400); // colour transitions settle
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${t}.png`), fullPage: false });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  }
  await theme(page, "light");
}

async function newTask(page: Page, f: { title: string; objective: string; constraint?: string }) {
  await page.getByRole("button", { name: "New task" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Agent profile")).toHaveValue("demo");
  await dialog.getByLabel("Title").fill(f.title);
  await dialog.getByLabel("Objective").fill(f.objective);
  await dialog.getByLabel("Base ref").fill("");
  if (f.constraint) await dialog.getByLabel("Constraints 1").fill(f.constraint);
  await dialog.getByRole("button", { name: "Start task" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/tasks\/tsk[a-z0-9]+/);
  return new URL(page.url()).pathname.split("/").pop()!;
}

/** The state words in the task header (completed, working, input required, …). */
const stateBadge = (page: Page) => page.locator("main header [data-testid=state-badge]").first();

test.describe.configure({ mode: "serial" });

test("create, watch, answer, review, request changes, approve, merge; discard; conflict", async ({
  page,
  makeRepo,
  yard,
}) => {
  test.setTimeout(300_000);
  const errors: string[] = [];
  page.on("console", (m) => {
    // Refusals are HTTP 4xx answers the UI shows; the browser also logs them as failed loads.
    if (m.type() === "error" && !/Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()))
      errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(String(e)));

  const repo = makeRepo("yard-e2e-flow-");
  const added = await yard(["--json", "project", "add", repo, "--name", "flow-demo"]);
  expect(added.code, added.stderr).toBe(0);
  const projectId = added.json.project.id as string;
  await page.goto(`/?project=${projectId}`);
  await expect(page.getByText("No tasks in this project yet")).toBeVisible();

  // ---- validation: a missing objective is refused inline, nothing is created --------------
  await page.keyboard.press("n");
  const dialog = page.getByRole("dialog", { name: "New task" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Start task" }).click();
  await expect(dialog.getByRole("alert")).toContainText("objective");
  await expect(dialog.getByLabel("Objective")).toHaveAttribute("aria-invalid", "true");
  // A base ref the server cannot resolve: its message next to the field.
  await dialog.getByLabel("Objective").fill("noreport");
  await dialog.getByLabel("Base ref").fill("no-such-branch");
  await dialog.getByRole("button", { name: "Start task" }).click();
  await expect(dialog.locator("#nt-base-err")).toContainText("no-such-branch");
  // The picker lists the repository's branches and recent commits; picking one fills the field.
  await dialog.getByRole("button", { name: "Pick a branch or commit" }).click();
  const refs = dialog.getByRole("listbox", { name: "Branches and commits" });
  await refs.getByRole("option", { name: /main/ }).first().click();
  await expect(dialog.getByLabel("Base ref")).toHaveValue("main");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  expect((await yard(["--json", "task", "list"])).json.tasks ?? []).toHaveLength(0);

  // ---- task A: live terminal, a permission prompt answered by typing ---------------------
  const a = await newTask(page, {
    title: "Write notes",
    objective:
      "write notes.txt hello\nappend notes.txt second line\nappend notes.txt third line\nask May I commit?\ncommit add notes\nreport completed wrote notes.txt",
    constraint: "touch only notes.txt",
  });
  await expect(page.getByRole("tab", { name: "Terminal" })).toHaveAttribute("aria-selected", "true");
  await expect(rows(page)).toContainText("Allow? (y/n)", { timeout: 60_000 });
  await expect(page.getByRole("button", { name: /Needs you/ })).toContainText("1");
  await page.locator("[data-testid=terminal]").click();
  await page.keyboard.press("y");
  await expect(rows(page)).toContainText("Allowed");
  // The screen stays readable by assistive technology (xterm's screen-reader mirror).
  await expect(page.locator("[data-testid=terminal] .xterm-accessibility-tree")).toContainText("Allowed");
  await expect(stateBadge(page)).toHaveText("completed", { timeout: 60_000 });
  await expect(page.getByTestId("task-result")).toContainText("wrote notes.txt");
  await page.reload();
  await expect(stateBadge(page)).toHaveText("completed");
  await expect(rows(page)).toContainText("Allowed");

  // The board shows it in Review with its diff size (counted after the round ended) and how long
  // it has been there; the exact time is a tooltip, shown on keyboard focus too.
  await page.getByRole("link", { name: "← Board" }).click();
  await expect(column(page, "review").getByRole("link", { name: "Write notes" })).toBeVisible();
  await page.reload();
  const cardA = column(page, "review").getByRole("link", { name: "Write notes" });
  await expect(cardA).toHaveAccessibleDescription(/1 file changed, 3 additions, 0 deletions/);
  await expect(cardA).toHaveAccessibleDescription(/In Review for (less than a minute|\d+ minutes?), since /);
  await expect(cardA.getByTestId("card-diff")).toContainText("+3");
  await expect(cardA.getByTestId("column-age")).toContainText(/^(<1m|\d+m)/);
  const since = column(page, "review").getByText(/^In Review since /);
  await expect(since).toBeHidden();
  await cardA.focus();
  await page.keyboard.press("Home");
  await expect(cardA).toBeFocused();
  await expect(since).toBeVisible();
  await shootPart(page, column(page, "review"), "card-diff-and-age");

  // ---- task B, from the dialog too --------------------------------------------------------
  await page.goto(`/?project=${projectId}`);
  const b = await newTask(page, {
    title: "Throwaway",
    objective: "write other.txt x\ncommit other\nreport completed other",
  });
  await expect(stateBadge(page)).toHaveText("completed", { timeout: 60_000 });

  // ---- Changes ----------------------------------------------------------------------------
  await page.goto(`/tasks/${a}`);
  await page.getByRole("tab", { name: "Changes" }).click();
  const file = page.locator('[data-diff-file="notes.txt"]');
  await expect(file).toContainText("second line");
  await expect(page.getByTestId("diff-summary")).toContainText("1 file changed");
  await page.getByRole("button", { name: "Split" }).click();
  await expect(file.locator("table.diff-split")).toBeVisible();
  await page.getByRole("button", { name: "Unified" }).click();
  await page.reload();
  await expect(page.getByRole("tab", { name: "Changes" })).toHaveAttribute("aria-selected", "true");
  await expect(file).toContainText("third line");
  await page.goto(`/?project=${projectId}`);
  await expect(column(page, "review").getByRole("link")).toHaveCount(2);
  await shoot(page, "board");
  await page.goto(`/tasks/${a}?tab=changes`);
  await expect(file).toContainText("third line");
  await shoot(page, "task-changes");

  // ---- Review: comments on a range, request changes, round 2, approve --------------------
  // A tab is page state: switching asks the server for nothing and keeps the page mounted (a
  // re-render from the server used to land after the first click and drop the comment draft).
  const serverRenders: string[] = [];
  page.on("request", (r) => void (r.url().includes("_rsc=") && serverRenders.push(r.url())));
  await page.getByRole("tab", { name: "Review" }).click();
  await expect(page).toHaveURL(/tab=review/);
  await page.getByRole("button", { name: "Comment on line 2", exact: true }).click();
  await expect(page.getByTestId("comment-range")).toContainText("line 2");
  await page.getByRole("button", { name: "Comment on line 3", exact: true }).click({ modifiers: ["Shift"] });
  await expect(page.getByTestId("comment-range")).toContainText("lines 2–3");
  expect(serverRenders).toEqual([]);
  await page
    .getByRole("textbox", { name: "Comment" })
    .fill("append notes.txt fixed by review; commit review fix; report completed applied the review");
  await page.getByRole("button", { name: "Save comment" }).click();
  await expect(page.locator("[data-comment-id]").first()).toContainText("append notes.txt fixed by review");
  await page.reload();
  await expect(page.locator("[data-comment-id]").first()).toContainText("append notes.txt fixed by review");
  await shoot(page, "task-review");

  await page.getByRole("textbox", { name: "Summary" }).fill("Please add the line.");
  await page.getByRole("button", { name: "Request changes" }).click();
  await expect(page.getByTestId("task-round")).toHaveText("round 2", { timeout: 30_000 });
  await expect(stateBadge(page)).toHaveText("completed", { timeout: 90_000 });
  const rounds = await page.request.get(
    `/api/trpc/tasks.rounds?input=${encodeURIComponent(JSON.stringify({ id: a }))}`,
  );
  const r2 = (await rounds.json()).result.data.rounds.find((r: { number: number }) => r.number === 2);
  expect(r2.prompt).toContain("append notes.txt fixed by review");
  await page.reload();
  await expect(page.locator("[data-round='1']")).toContainText("append notes.txt fixed by review");
  // Between rounds: only what round 2 changed.
  await page.getByRole("tab", { name: "Changes" }).click();
  await page.getByRole("button", { name: "Changes since last review" }).click();
  await expect(file).toContainText("fixed by review");
  await expect(file.locator(".diff-code-insert")).toHaveCount(1);
  await page.getByRole("tab", { name: "Review" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("main").getByText("Approved", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("main").getByText("Approved", { exact: true })).toBeVisible();

  // ---- The agent commits after the approval: it is outdated and does not merge -------------
  const aTask = (await yard(["--json", "task", "get", a])).json.task;
  writeFileSync(path.join(aTask.worktreePath, "late.txt"), "committed after the approval\n");
  git(aTask.worktreePath, "add", "late.txt");
  git(aTask.worktreePath, "commit", "-qm", "after the approval");
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Approval outdated" })).toBeVisible();
  await shoot(page, "approval-outdated");
  await shootDialog(page, "merge-refused-outdated", async () => {
    await page.getByRole("button", { name: "Merge", exact: true }).click();
    const refused = page.getByRole("dialog", { name: /Merge into main/ });
    await expect(refused).toContainText("The approval is outdated");
    await expect(refused.getByRole("button", { name: "Merge", exact: true })).toBeDisabled();
    return refused;
  });
  await page.getByRole("tab", { name: "Review" }).click();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByRole("main").getByText("Approved", { exact: true })).toBeVisible();

  // ---- Merge --------------------------------------------------------------------------------
  const thread = page.getByRole("region", { name: "Thread" });
  await expect(thread.getByRole("button", { name: "Acknowledge result" })).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Summary" })).toBeVisible();
  await page.getByRole("button", { name: "Merge", exact: true }).click();
  const merge = page.getByRole("dialog", { name: /Merge into main/ });
  await expect(merge).toContainText("main");
  await merge.getByRole("button", { name: "Merge", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toBeVisible();
  expect(git(repo, "show", "main:notes.txt")).toContain("third line");
  // Finished: what the merge did, and nothing left to act on (review, acknowledge, merge, discard).
  const finishedSummary = async () => {
    const finished = page.getByRole("region", { name: "Finished" });
    await expect(finished.getByRole("status")).toContainText("Merged into main");
    await expect(finished).toContainText(git(repo, "rev-parse", "--short=7", "main").trim());
    await expect(finished).toContainText("By You", { useInnerText: true });
    await expect(finished).toContainText("Worktree removed", { useInnerText: true });
    await expect(finished.getByRole("button", { name: "Copy merge commit" })).toBeVisible();
    await expect(page.getByTestId("reviews-closed")).toContainText("Reviews are closed");
    for (const name of ["Acknowledge result", "Approve", "Request changes", "Merge", "Discard", "Comment on line 1"])
      await expect(page.getByRole("button", { name, exact: true })).toHaveCount(0);
    await expect(page.getByRole("textbox", { name: "Summary" })).toHaveCount(0);
  };
  await finishedSummary();
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toBeVisible();
  await finishedSummary();
  await shoot(page, "task-finished");
  await page.goto(`/?project=${projectId}`);
  await expect(column(page, "done").getByRole("link", { name: "Write notes" })).toBeVisible();

  // ---- Discard B: worktree gone, branch kept ------------------------------------------------
  const bTask = (await yard(["--json", "task", "get", b])).json.task;
  writeFileSync(path.join(bTask.worktreePath, "scratch.txt"), "never committed\n");
  await page.goto(`/tasks/${b}`);
  const openDiscard = async () => {
    await page.getByRole("button", { name: "Discard", exact: true }).click();
    const d = page.getByRole("dialog", { name: "Discard this task" });
    // The confirmation names what it deletes.
    await expect(d.getByRole("list", { name: "Uncommitted files" })).toContainText("scratch.txt");
    return d;
  };
  await shootDialog(page, "discard-lists-files", openDiscard);
  const discard = await openDiscard();
  await expect(discard).toContainText("main");
  await expect(discard.getByRole("checkbox", { name: "Delete branch" })).not.toBeChecked();
  await discard.getByRole("button", { name: "Discard", exact: true }).click();
  await expect(page.getByRole("status").filter({ hasText: "Discarded" })).toBeVisible();
  expect(existsSync(bTask.worktreePath)).toBe(false);
  expect(git(repo, "branch", "--list", bTask.branch)).toContain(bTask.branch);
  await page.reload();
  await expect(page.getByRole("status").filter({ hasText: "Discarded" })).toBeVisible();
  const discarded = page.getByRole("region", { name: "Finished" });
  await expect(discarded).toContainText("1 file deleted with the worktree");
  await expect(discarded).toContainText(`${bTask.branch} kept`);
  await expect(page.getByRole("button", { name: "Discard", exact: true })).toHaveCount(0);

  // ---- A conflict: the files are listed, nothing changes ------------------------------------
  const c = await startDemoTask(yard, {
    project: projectId,
    title: "Conflicting",
    objective: "write README.md from the task\ncommit conflicting readme\nreport completed changed readme",
  });
  const cId = c.json.task.id as string;
  expect((await yard(["--json", "task", "wait", cId, "--timeout-ms", "90000"])).code).toBe(0);
  writeFileSync(path.join(repo, "README.md"), "# changed on main\n");
  git(repo, "commit", "-qam", "main moves on");
  const mainBefore = git(repo, "rev-parse", "main");
  await page.goto(`/tasks/${cId}`);
  await page.getByRole("button", { name: "Merge", exact: true }).click();
  await page
    .getByRole("dialog", { name: /Merge into main/ })
    .getByRole("button", { name: "Merge", exact: true })
    .click();
  const alert = page.getByRole("alert").filter({ hasText: "Merge conflict" });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("list", { name: "Conflicted files" })).toContainText("README.md");
  expect(git(repo, "rev-parse", "main")).toBe(mainBefore);
  expect(git(repo, "status", "--porcelain")).toBe("");
  await page.reload();
  await expect(stateBadge(page)).toHaveText("completed");

  expect(errors, errors.join("\n")).toEqual([]);
});

test("palette, shortcuts help, Needs you and keyboard moves on the board", async ({ page, makeRepo, yard }) => {
  const repo = makeRepo("yard-e2e-keys-");
  const added = await yard(["--json", "project", "add", repo, "--name", "keys-demo"]);
  const projectId = added.json.project.id as string;
  for (const t of ["first", "second"]) {
    await startDemoTask(yard, { project: projectId, title: `${t} task`, objective: "noreport" });
  }
  await page.goto(`/?project=${projectId}`);
  // Both turns end without a report: the cards settle in Needs you.
  await expect(column(page, "needs_you").locator("[data-card]")).toHaveCount(2, { timeout: 60_000 });

  // Arrow keys move between cards; Enter opens.
  await page.locator("[data-card]").first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.locator("[data-card]").nth(1)).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(page.locator("[data-card]").first()).toBeFocused();

  // Search by title.
  await page.getByRole("searchbox", { name: "Search tasks" }).fill("second");
  await expect(page.locator("[data-card]")).toHaveCount(1);
  await page.reload();
  await expect(page.locator("[data-card]")).toHaveCount(1);
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(page.locator("[data-card]")).toHaveCount(2);

  // Palette: Ctrl-K, type, Enter.
  await page.keyboard.press("Control+k");
  const palette = page.getByRole("dialog", { name: "Command palette" });
  await expect(palette).toBeVisible();
  await page.keyboard.type("go to panes");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/panes$/);

  // Shortcuts help.
  await page.locator("body").click();
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toContainText("Command palette");
  await page.keyboard.press("Escape");

  // Needs you lists the input-required tasks, each linking to its task.
  const needs = page.getByRole("button", { name: /Needs you/ });
  await needs.click();
  const panel = page.getByRole("region", { name: "Items that need you" });
  await expect(panel.getByRole("link", { name: /first task/ })).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByRole("link", { name: /second task/ })).toContainText("needs your input");
  await expect(panel.getByRole("checkbox", { name: "Completed" })).toBeVisible();
  await panel.getByRole("link", { name: /first task/ }).click();
  await expect(page).toHaveURL(/\/tasks\/tsk/);
  await expect(page.locator("main header [data-testid=state-badge]").first()).toHaveText("input required");
});
