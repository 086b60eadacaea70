// The orchestration scenario of tests/scenario.test.ts, with the person as the orchestrator in
// the browser: a goal task started with "Plan first" in the New task dialog; the scripted
// planner's v1 shows in the task's Plan region, the person requests changes, v2 arrives and is
// approved; the board's graph draws the chain A → B → C; the agent reviewer requests changes of
// A once and approves round 2 (its reviews labelled "Agent review"); B waits in the backlog until
// A is merged, asks its question in the Thread and is answered there; each subtask is approved
// and merged in order; the goal's result lists its three subtasks. The CLI only adds the scripted
// planner and reviewer profiles and the project (no UI for scripted profiles).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { git } from "../tests/helpers/git";
import { PLAN, PLAN_V1, scenarioScripts } from "../tests/helpers/scenario";
import { expect, test } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const shot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
};

const column = (page: Page, c: string) => page.locator(`section[data-column="${c}"]`);
const taskIdOf = (page: Page) => decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);

test("goal → plan (changes requested, v2 approved) → subtasks in order with a question, an agent review round and merges, all in the browser", async ({
  page,
  makeRepo,
  makeDir,
  yard,
}) => {
  test.setTimeout(480_000);
  const scratch = makeDir("yard-e2e-scenario-");
  const ok = async (args: string[]) => {
    const r = await yard(["--json", ...args]);
    expect(r.code, `yard ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(0);
    return r.json;
  };
  // The planner's first reply submits v1, its second (the feedback) v2; the reviewer requests
  // changes of A once, then approves.
  const scripts = scenarioScripts(scratch, [PLAN_V1, PLAN]);
  await ok(["agent", "add", "scripted-planner", "--role", "planner", "--hooks", "--", ...scripts.planner]);
  await ok(["agent", "add", "scripted-reviewer", "--role", "reviewer", "--hooks", "--", ...scripts.reviewer]);
  const repo = makeRepo("yard-e2e-scenario-repo-");
  const projectId = (await ok(["project", "add", repo, "--name", "greetings"])).project.id as string;

  // ---- The goal, planned first ----------------------------------------------------------
  await page.goto(`/?project=${projectId}`);
  await page.getByRole("button", { name: "New task" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Title").fill("Greetings");
  await dialog.getByLabel("Objective").fill("Write three greeting files");
  await expect(dialog.getByLabel("Planner")).toBeDisabled();
  await dialog.getByRole("checkbox", { name: "Plan first" }).check();
  await expect(dialog.getByRole("button", { name: "Save to backlog" })).toBeDisabled();
  await dialog.getByLabel("Planner").selectOption("scripted-planner");
  await dialog.getByLabel("Reviewer").selectOption("scripted-reviewer");
  await dialog.getByRole("button", { name: "Start task" }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/tasks\/tsk/);
  const goalId = taskIdOf(page);

  // v1 in review: its goal, steps and subtasks; changes requested with feedback and a note.
  const plan = page.getByRole("region", { name: /^Plan/ });
  await expect(plan.getByRole("button", { name: "Approve plan" })).toBeVisible({ timeout: 60_000 });
  await expect(plan).toContainText("version 1");
  await expect(plan).toContainText("Two greeting files");
  await expect(plan.getByRole("list", { name: "Steps" }).getByRole("listitem")).toHaveText([
    "write a.txt",
    "write b.txt after a",
  ]);
  const v1Subtasks = plan.getByRole("list", { name: "Subtasks of version 1" }).locator(":scope > li");
  await expect(v1Subtasks).toHaveCount(2);
  await expect(v1Subtasks.nth(1)).toContainText("File B");
  await expect(v1Subtasks.nth(1)).toContainText("after: File A");
  await expect(page.getByTestId("task-state-words")).toHaveText("input required");
  await expect(page.getByRole("textbox", { name: "Follow-up prompt" })).toHaveCount(0);
  await shot(page, "plan-v1-light");

  // Escape closes the feedback box; the keyboard opens it again.
  await plan.getByRole("button", { name: "Request changes" }).click();
  await expect(plan.getByRole("textbox", { name: "Plan feedback" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(plan.getByRole("textbox", { name: "Plan feedback" })).toHaveCount(0);
  await plan.getByRole("button", { name: "Request changes" }).focus();
  await expect(plan.getByRole("button", { name: "Request changes" })).toBeFocused();
  await page.keyboard.press("Enter");
  await plan.getByRole("textbox", { name: "Plan feedback" }).fill("Add a third file, C, after B.");
  await plan.getByRole("button", { name: "+ Add note" }).click();
  await plan.getByRole("textbox", { name: "Note 1" }).fill("C says C");
  await plan.getByRole("button", { name: "Send feedback" }).click();

  // v2 arrives (the planner's reply to the feedback); v1 is in the history with its notes.
  await expect(plan).toContainText("version 2", { timeout: 60_000 });
  await expect(plan).toContainText("Three greeting files");
  const history = plan.getByRole("list", { name: "Plan versions" });
  const v1 = history.getByRole("listitem", { name: "Version 1: changes requested" });
  await expect(v1).toContainText("Add a third file, C, after B.");
  await expect(v1.getByRole("list", { name: "Notes" })).toHaveText("C says C");
  const v2Subtasks = plan.getByRole("list", { name: "Subtasks of version 2" }).locator(":scope > li");
  await expect(v2Subtasks).toHaveCount(3);
  await expect(v2Subtasks.nth(2)).toContainText("after: File B");
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "plan-v2-dark");
  await page.emulateMedia({ colorScheme: "light" });

  // Approved: the subtasks are created and each links to its task page; the goal completes.
  await plan.getByRole("button", { name: "Approve plan" }).click();
  await expect(plan.getByRole("button", { name: "Approve plan" })).toHaveCount(0);
  const link = (title: string) =>
    plan.getByRole("list", { name: "Subtasks of version 2" }).getByRole("link", { name: title, exact: true });
  await expect(link("File A")).toBeVisible();
  const ids: Record<string, string> = {};
  for (const [k, title] of [
    ["a", "File A"],
    ["b", "File B"],
    ["c", "File C"],
  ] as const)
    ids[k] = (await link(title).getAttribute("href"))!.split("/").pop()!;
  await expect(page.getByTestId("task-state-words")).toHaveText("completed");

  // ---- The board: the chain in the graph; B and C wait in the backlog ----------------------
  await page.goto(`/?project=${projectId}`);
  await expect(column(page, "backlog").locator(`li[data-task-id="${ids.b}"]`)).toBeVisible();
  await expect(column(page, "backlog").locator(`li[data-task-id="${ids.c}"]`)).toBeVisible();
  const graphButton = page.getByRole("button", { name: "Graph" });
  await graphButton.click();
  await expect(page.getByRole("img", { name: "File A → File B" })).toBeVisible();
  await expect(page.getByRole("img", { name: "File B → File C" })).toBeVisible();
  await expect(page.getByTestId("graph-edge")).toHaveCount(2);
  await graphButton.click();
  await expect(graphButton).toHaveAttribute("aria-pressed", "false");

  // ---- A: the agent reviewer requests changes once, approves round 2 -----------------------
  await page.goto(`/tasks/${ids.a}`);
  const agentStatus = page.getByTestId("agent-review-status");
  await expect(agentStatus).toContainText("approved by scripted-reviewer", { timeout: 180_000 });
  await expect(page.getByTestId("task-round")).toHaveText("round 2");
  await expect(page.getByRole("button", { name: "Run agent review again" })).toBeVisible();
  await page.getByRole("tab", { name: "Review" }).click();
  const r1 = page.getByRole("article", { name: "Agent review, round 1" });
  await expect(r1).toContainText("Agent review by scripted-reviewer");
  await expect(r1).toContainText("changes requested");
  await expect(r1).toContainText("write a.txt AA");
  await expect(r1).toContainText("commit shout");
  const r2 = page.getByRole("article", { name: "Agent review, round 2" });
  await expect(r2).toContainText("approved");
  await expect(r2).toContainText("good");
  await expect(page.getByRole("status").filter({ hasText: "The agent reviewer approved this round" })).toBeVisible();
  await shot(page, "agent-review-light");

  // B still waits for A to be merged.
  await page.goto(`/tasks/${ids.b}`);
  await expect(page.getByTestId("task-state-words")).toHaveText("backlog");
  await expect(page.getByRole("region", { name: "Dependencies" }).getByTestId("waiting-reason")).toHaveText(
    "Waits for “File A” to be merged",
  );

  const approveAndMerge = async (id: string) => {
    await page.goto(`/tasks/${id}?tab=review`);
    await expect(page.getByTestId("task-state-words")).toHaveText("completed");
    await page.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(page.getByRole("main").getByText("Approved", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Merge", exact: true }).click();
    await page
      .getByRole("dialog", { name: /Merge into main/ })
      .getByRole("button", { name: "Merge", exact: true })
      .click();
    await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toBeVisible();
  };
  await approveAndMerge(ids.a!);

  // ---- B starts by itself, asks, is answered in the Thread ---------------------------------
  await page.goto(`/tasks/${ids.b}`);
  await expect(page.getByTestId("task-state-words")).not.toHaveText("backlog", { timeout: 30_000 });
  const thread = page.getByRole("region", { name: "Thread" });
  const messages = thread.getByRole("list", { name: "Messages" }).getByRole("listitem");
  await expect(messages.first()).toContainText("Which greeting goes in b?", { timeout: 90_000 });
  await thread.getByRole("textbox", { name: "Answer" }).fill("report completed greeting is B");
  await thread.getByRole("button", { name: "Send answer" }).click();
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(1)).toContainText("report completed greeting is B");
  await expect(agentStatus).toContainText("approved by scripted-reviewer", { timeout: 120_000 });
  await approveAndMerge(ids.b!);

  // ---- C ----------------------------------------------------------------------------------
  await page.goto(`/tasks/${ids.c}`);
  await expect(agentStatus).toContainText("approved by scripted-reviewer", { timeout: 120_000 });
  await approveAndMerge(ids.c!);

  // Merged in order on main; the goal's result lists its three subtasks.
  expect(git(repo, "show", "main:a.txt")).toBe("AA");
  expect(git(repo, "show", "main:b.txt")).toBe("B");
  expect(git(repo, "show", "main:c.txt")).toBe("C");
  await page.goto(`/tasks/${goalId}`);
  const result = page.getByTestId("task-result");
  await expect(result).toContainText("3 subtasks");
  await expect(result.getByRole("list", { name: "Subtasks" }).getByRole("link")).toHaveText([
    "File A",
    "File B",
    "File C",
  ]);
  await expect(
    page.getByRole("region", { name: /^Plan/ }).getByRole("list", { name: "Subtasks of version 2" }).getByRole("link"),
  ).toHaveText(["File A", "File B", "File C"]);
});
