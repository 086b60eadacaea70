// Backlog in a real browser: "Save to backlog" from the New task dialog keeps a card with a Start
// button; dragging it to In progress at the running-task cap shows a message naming the cap and
// how many run, and nothing changes; below the cap the drag starts it.
import type { Page } from "@playwright/test";
import { expect, test, startDemoTask } from "./fixtures";

const column = (page: Page, c: string) => page.locator(`section[data-column="${c}"]`);

test("save to backlog, refused drag at the cap, drag to start", async ({ page, makeRepo, yard }) => {
  test.setTimeout(180_000);
  const repo = makeRepo("yard-e2e-backlog-");
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "backlog-demo"])).json.project
    .id as string;
  await page.goto(`/?project=${projectId}`);

  await page.getByRole("button", { name: "New task" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Title").fill("Later");
  await dialog.getByLabel("Objective").fill("write later.txt later\ncommit later\nreport completed later");
  await dialog.getByLabel("Label").fill("chore");
  await dialog.getByRole("button", { name: "Save to backlog" }).click();
  await expect(dialog).toBeHidden();
  const card = column(page, "backlog").locator("li", { hasText: "Later" });
  await expect(card).toBeVisible();
  await expect(card.getByRole("button", { name: /^Start/ })).toBeVisible();
  await page.reload();
  await expect(card).toContainText("chore");

  // Fill the cap (4) with agents that keep working.
  const running: string[] = [];
  for (let i = 0; i < 4; i++) {
    const r = await startDemoTask(yard, { project: projectId, title: `busy ${i}`, objective: "sleep 120000" });
    running.push(r.json.task.id);
  }
  await expect(column(page, "in_progress").locator("[data-card]")).toHaveCount(4, { timeout: 30_000 });
  await card.dragTo(column(page, "in_progress"));
  const refusal = page.getByRole("alert").filter({ hasText: "not started" });
  await expect(refusal).toContainText("4");
  await expect(refusal).toContainText("cap");
  await expect(column(page, "backlog").locator("li", { hasText: "Later" })).toBeVisible();
  await page.reload();
  await expect(column(page, "backlog").locator("li", { hasText: "Later" })).toBeVisible();

  // Below the cap the drag starts it.
  expect((await yard(["--json", "task", "cancel", running[0]!])).code).toBe(0);
  await expect(column(page, "in_progress").locator("[data-card]")).toHaveCount(3, { timeout: 30_000 });
  await column(page, "backlog").locator("li", { hasText: "Later" }).dragTo(column(page, "in_progress"));
  await expect(column(page, "backlog").locator("li", { hasText: "Later" })).toHaveCount(0, { timeout: 30_000 });
  for (const id of running.slice(1)) await yard(["--json", "task", "cancel", id]);
});
