// Orchestration in a real browser with the demo agent: a task created in the New task dialog
// depending on another waits in the Backlog saying so, the Graph view draws the edge, dropping a
// card onto a Backlog card adds a dependency, a cycle is refused with the server's message, and
// merging the dependency starts the waiting task by itself. A worker's question shows in the
// task page's Thread; the answer typed there reaches the worker, which completes; the result is
// acknowledged.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const shot = async (page: Page, name: string) => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
};

const column = (page: Page, c: string) => page.locator(`section[data-column="${c}"]`);
const card = (page: Page, id: string) => page.locator(`li[data-task-id="${id}"]`);

async function newTask(
  page: Page,
  title: string,
  objective: string,
  opts: { dependsOn?: string[]; backlog?: boolean } = {},
) {
  await page.getByRole("button", { name: "New task" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Objective").fill(objective);
  for (const d of opts.dependsOn ?? [])
    await dialog.getByRole("group", { name: "Depends on" }).getByRole("checkbox", { name: d, exact: true }).check();
  await dialog.getByRole("button", { name: opts.backlog ? "Save to backlog" : "Start task" }).click();
  // The dialog closes once the start has answered (a worktree made, the agent's pane spawned):
  // seconds on a loaded machine.
  await expect(dialog).toBeHidden({ timeout: 30_000 });
}

/** The id of the card titled `title` on the board. */
async function cardId(page: Page, title: string): Promise<string> {
  const li = page.locator("li[data-task-id]").filter({ has: page.getByRole("link", { name: title, exact: true }) });
  await expect(li).toHaveCount(1);
  return (await li.getAttribute("data-task-id"))!;
}

test("dependencies: waits in the backlog, graph, drag, cycle refused, starts by itself once merged", async ({
  page,
  makeRepo,
  yard,
}) => {
  test.setTimeout(180_000);
  const repo = makeRepo("yard-e2e-deps-");
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "deps-demo"])).json.project.id as string;
  await page.goto(`/?project=${projectId}`);

  // A starts (the dialog opens its page); B depends on A and waits in the backlog.
  await newTask(page, "Alpha", "write a.txt A\ncommit a\nreport completed a");
  await expect(page).toHaveURL(/\/tasks\/tsk/);
  const aId = decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
  await newTask(page, "Beta", "report completed b", { dependsOn: ["Alpha"] });
  await expect(page.getByTestId("toast").filter({ hasText: "Waiting in the backlog" })).toBeVisible();

  await page.goto(`/?project=${projectId}`);
  const bId = await cardId(page, "Beta");
  const beta = column(page, "backlog").locator(`li[data-task-id="${bId}"]`);
  await expect(beta).toBeVisible();
  await expect(beta.getByTestId("card-waiting")).toHaveText("Waits for “Alpha” to be merged");
  // The line is part of the card's description.
  await expect(beta.getByRole("link", { name: "Beta", exact: true })).toHaveAccessibleDescription(
    /Waits for “Alpha” to be merged/,
  );

  // The graph: Alpha → Beta, each node a link to its task.
  const graphButton = page.getByRole("button", { name: "Graph" });
  await graphButton.click();
  await expect(graphButton).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("img", { name: "Alpha → Beta" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Alpha", exact: true })).toHaveAttribute("href", `/tasks/${aId}`);
  await expect(page.getByRole("link", { name: "Beta", exact: true })).toHaveAttribute("href", `/tasks/${bId}`);
  await graphButton.click();
  await expect(graphButton).toHaveAttribute("aria-pressed", "false");
  await expect(column(page, "backlog")).toBeVisible();

  // Two more backlog tasks: dropping X onto Z makes Z wait for X.
  await newTask(page, "Xray", "report completed x", { backlog: true });
  await newTask(page, "Zulu", "report completed z", { backlog: true });
  const xId = await cardId(page, "Xray");
  const zId = await cardId(page, "Zulu");
  await card(page, xId).dragTo(card(page, zId));
  await expect(card(page, zId).getByTestId("card-waiting")).toHaveText("Waits for “Xray” to be merged");
  await expect(card(page, xId).getByTestId("card-waiting")).toHaveCount(0);

  // The other way round closes a cycle: refused with the server's message, in a toast.
  await card(page, zId).dragTo(card(page, xId));
  const refusal = page.getByTestId("toast").filter({ hasText: "Dependency refused" });
  await expect(refusal).toContainText("That dependency would make a cycle: “Xray” → “Zulu” → “Xray”");
  await expect(card(page, xId).getByTestId("card-waiting")).toHaveCount(0);
  await shot(page, "deps-board-light");
  await page.emulateMedia({ colorScheme: "dark" });
  await page.getByRole("button", { name: "Graph" }).click();
  await expect(page.getByRole("img", { name: "Xray → Zulu" })).toBeVisible();
  await shot(page, "deps-graph-dark");
  await page.getByRole("button", { name: "Graph" }).click();
  await page.emulateMedia({ colorScheme: "light" });

  // The keyboard path (the card's Depends on… dialog) is refused the same way.
  await card(page, xId)
    .getByRole("button", { name: /^Depends on…/ })
    .click();
  const depDialog = page.getByRole("dialog", { name: "Xray depends on…" });
  await depDialog.getByLabel("Depends on").selectOption({ label: "Zulu (backlog)" });
  await depDialog.getByRole("button", { name: "Add dependency" }).click();
  await expect(depDialog.getByRole("alert")).toContainText(
    "That dependency would make a cycle: “Xray” → “Zulu” → “Xray”",
  );
  await depDialog.getByRole("button", { name: "Close" }).click();

  // The task page: Zulu's dependency listed with its state; another added, the first removed
  // (removing the last unmet one would start it by itself).
  await page.goto(`/tasks/${zId}`);
  const zDeps = page.getByRole("region", { name: "Dependencies" });
  await expect(zDeps.getByRole("listitem").filter({ hasText: "Xray" })).toContainText("waiting");
  await expect(zDeps.getByTestId("waiting-reason")).toHaveText("Waits for “Xray” to be merged");
  await zDeps.getByLabel("Depends on").selectOption({ label: "Beta (backlog)" });
  await zDeps.getByRole("button", { name: "Add dependency" }).click();
  await expect(zDeps.getByRole("listitem").filter({ hasText: "Beta" })).toContainText("waiting");
  await zDeps.getByRole("button", { name: "Remove dependency Xray" }).click();
  await expect(zDeps.getByRole("listitem").filter({ hasText: "Xray" })).toHaveCount(0);
  await expect(zDeps.getByTestId("waiting-reason")).toHaveText("Waits for “Beta” to be merged");
  await expect(page.getByTestId("task-state-words")).toHaveText("backlog");

  // Merge A in the browser: B starts by itself and leaves the Backlog.
  await page.goto(`/tasks/${aId}`);
  await expect(page.getByTestId("task-state-words")).toHaveText("completed", { timeout: 60_000 });
  await page.getByRole("button", { name: "Merge", exact: true }).click();
  await page
    .getByRole("dialog", { name: /Merge into main/ })
    .getByRole("button", { name: "Merge", exact: true })
    .click();
  await expect(page.getByRole("status").filter({ hasText: "Merged into main" })).toBeVisible();

  await page.goto(`/tasks/${bId}`);
  const deps = page.getByRole("region", { name: "Dependencies" });
  await expect(deps.getByRole("link", { name: "Alpha" })).toBeVisible();
  await expect(deps).toContainText("met", { timeout: 30_000 });
  await expect(page.getByTestId("task-state-words")).not.toHaveText("backlog", { timeout: 30_000 });
  await page.goto(`/?project=${projectId}`);
  await expect(column(page, "backlog").locator(`li[data-task-id="${bId}"]`)).toHaveCount(0);
  await expect(page.locator(`li[data-task-id="${bId}"]`)).toBeVisible();
});

test("a worker's question in the Thread, answered there; the result acknowledged", async ({ page, makeRepo, yard }) => {
  test.setTimeout(120_000);
  const repo = makeRepo("yard-e2e-ask-");
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "ask-demo"])).json.project.id as string;
  await page.goto(`/?project=${projectId}`);
  await newTask(page, "Port question", 'run-yard task ask "Which port?"');
  await expect(page).toHaveURL(/\/tasks\/tsk/);

  const thread = page.getByRole("region", { name: "Thread" });
  const messages = thread.getByRole("list", { name: "Messages" }).getByRole("listitem");
  await expect(messages).toHaveCount(1, { timeout: 60_000 });
  await expect(messages.first()).toContainText("Which port?");
  await expect(messages.first()).toContainText("open question");
  await expect(messages.first()).toContainText("Worker");

  await shot(page, "thread-question-light");
  await thread.getByRole("textbox", { name: "Answer" }).fill("write port.txt 8080; commit port; report completed port");
  await thread.getByRole("button", { name: "Send answer" }).click();
  await expect(page.getByTestId("task-state-words")).toHaveText("completed", { timeout: 60_000 });
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText("Which port?");
  await expect(messages.nth(1)).toContainText("You");
  await expect(messages.nth(1)).toContainText("write port.txt 8080; commit port; report completed port");
  await expect(thread.getByText("open question")).toHaveCount(0);
  await expect(thread.getByRole("textbox", { name: "Answer" })).toHaveCount(0);

  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "thread-answered-dark");
  await thread.getByRole("button", { name: "Acknowledge result" }).click();
  await expect(thread.getByRole("status").filter({ hasText: "Acknowledged" })).toBeVisible();
  await expect(thread.getByRole("button", { name: "Acknowledge result" })).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByRole("region", { name: "Thread" }).getByRole("status").filter({ hasText: "Acknowledged" }),
  ).toBeVisible();
});
