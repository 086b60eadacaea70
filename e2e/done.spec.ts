// A board with a long history in a real browser: the Done column carries only the newest cards and
// links to "All done tasks", a page that lists every Done card newest first and loads older ones
// with "Older"; screenshots in both themes.
import path from "node:path";
import Database from "better-sqlite3";
import { DONE_ON_BOARD } from "../server/wire/board";
import { expect, shootPart, test } from "./fixtures";

test("the Done column shows the newest cards and links to every done task, page by page", async ({
  page,
  server,
  yard,
  makeRepo,
}) => {
  const repo = makeRepo("yard-e2e-done-");
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "history"])).json.project.id as string;
  // 75 finished tasks, as a long-lived board has (written as the server would have left them).
  const db = new Database(path.join(server.home, "yard.db"));
  const add = db.prepare(
    `INSERT INTO "Task" ("id", "title", "projectId", "repoPath", "agent", "objective", "state", "disposition", "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, 'demo', 'o', 'completed', ?, ?, ?)`,
  );
  const t0 = Date.parse("2026-11-01T00:00:00Z");
  for (let i = 0; i < 75; i++) {
    const at = new Date(t0 + i * 60_000).toISOString().replace("Z", "+00:00");
    add.run(
      `tskhist${String(i).padStart(4, "0")}`,
      `Finished ${i}`,
      projectId,
      repo,
      i % 2 ? "merged" : "discarded",
      at,
      at,
    );
  }
  db.close();

  await page.goto(`/?project=${projectId}`);
  const done = page.locator('section[data-column="done"]');
  await expect(done.getByRole("heading", { name: /Done/ })).toContainText(String(DONE_ON_BOARD));
  await expect(done.getByRole("link", { name: /Finished 74/ })).toBeVisible();
  await expect(done.getByRole("link", { name: /Finished 24\b/ })).toHaveCount(0); // older than the newest 50

  await done.getByRole("link", { name: "All done tasks" }).click();
  await expect(page).toHaveURL(new RegExp(`/done\\?project=${projectId}$`));
  await expect(page.getByRole("heading", { name: "Done", level: 1 })).toBeVisible();
  await expect(page.getByText("75 done tasks, newest first")).toBeVisible();
  const list = page.getByRole("list", { name: "Done tasks" });
  await expect(list.getByRole("listitem")).toHaveCount(50);
  await expect(list.getByRole("listitem").first()).toContainText("Finished 74");
  await shootPart(page, page.getByRole("main"), "done-page");
  await page.getByRole("button", { name: "Older" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(75);
  await expect(list.getByRole("listitem").last()).toContainText("Finished 0");
  await expect(page.getByRole("button", { name: "Older" })).toHaveCount(0);
  // Each card leads to its task.
  await list.getByRole("link", { name: "Finished 3", exact: true }).click();
  await expect(page).toHaveURL(/\/tasks\/tskhist0003$/);
});
