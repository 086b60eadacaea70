// Ready worktrees in the browser: a task whose repository has a `.switchyard.json` shows
// "Setting up…" and the step it is at on its board card, its Terminal tab shows the setup's
// commands and output live, and once its agent runs, a Preview link appears on the task page for
// its port as soon as something listens there. The project's settings dialog edits the override
// (a bad one is refused naming the field). Both themes.
import { mkdirSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { git } from "../tests/helpers/git";
import { expect, test, startDemoTask } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const rows = (page: Page) => page.locator("[data-testid=terminal] .xterm-rows");

test("a task sets up in its pane, then gets a Preview link for its listening port", async ({
  page,
  makeRepo,
  yard,
}) => {
  test.setTimeout(120_000);
  const repo = makeRepo("yard-e2e-setup-");
  writeFileSync(
    path.join(repo, ".switchyard.json"),
    JSON.stringify({
      setup: ["echo preparing the worktree", "until [ -e .go ]; do sleep 0.1; done"],
      ports: 1,
    }),
  );
  git(repo, "add", ".switchyard.json");
  git(repo, "commit", "-qm", "setup config");
  const project = (await yard(["--json", "project", "add", repo])).json.project;
  const started = await startDemoTask(yard, {
    project: project.id,
    title: "Set up first",
    objective: "report completed done",
  });
  const task = started.json.task;

  // The card: "Setting up…" in place of the state, and the step it is at.
  await page.goto(`/?project=${project.id}`);
  const card = page.locator(`[data-task-id="${task.id}"]`);
  await expect(card.getByTestId("state-badge")).toHaveText("Setting up…");
  await expect(card.getByTestId("card-setup")).toHaveText("setup 2/2: until [ -e .go ]; do sleep 0.1; done");
  mkdirSync(SCREENSHOTS, { recursive: true });
  await card.screenshot({ path: path.join(SCREENSHOTS, "card-setting-up-light.png") });

  // The task page: its Terminal tab shows the setup's commands and output as they run.
  await card.getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${task.id}$`));
  await expect(page.getByRole("tab", { name: "Terminal" })).toHaveAttribute("aria-selected", "true");
  await expect(rows(page)).toContainText("[setup 1/2] $ echo preparing the worktree");
  await expect(rows(page)).toContainText("preparing the worktree");
  await expect(rows(page)).toContainText("[setup 2/2] $ until [ -e .go ]");
  const env = page.getByRole("region", { name: "Environment" });
  await expect(env.getByRole("status")).toContainText("Setting up… setup 2/2");
  await expect(page.locator("main header [data-testid=state-badge]").first()).toHaveText("Setting up…");
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await expect(env.getByRole("status")).toBeVisible();
  await page.screenshot({ path: path.join(SCREENSHOTS, "task-setting-up-dark.png") });
  await page.getByRole("button", { name: "Light theme" }).click();

  // Setup ends, the agent starts in the same terminal and finishes.
  writeFileSync(path.join(task.worktreePath, ".go"), "");
  await expect(rows(page)).toContainText("[setup] done in");
  await expect(page.locator("main header [data-testid=state-badge]").first()).toHaveText("completed", {
    timeout: 60_000,
  });

  // Its port: no Preview until something listens there, then a link that opens it in a new tab.
  const port = (await yard(["--json", "task", "get", task.id])).json.task.setup.ports[0] as number;
  const ports = env.getByRole("list", { name: "Ports" });
  await expect(ports).toContainText(String(port));
  await expect(env.getByRole("link", { name: `Preview port ${port}` })).toHaveCount(0);
  const server = net.createServer((c) => {
    c.on("error", () => {}); // the server's check connects and hangs up at once
    c.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  try {
    const preview = env.getByRole("link", { name: `Preview port ${port}` });
    await expect(preview).toBeVisible({ timeout: 15_000 });
    await expect(preview).toHaveAttribute("href", `http://127.0.0.1:${port}/`);
    await expect(preview).toHaveAttribute("target", "_blank");
    await env.screenshot({ path: path.join(SCREENSHOTS, "task-environment-preview-light.png") });
  } finally {
    await new Promise((r) => server.close(r));
  }
});

test("the project's settings edit its override of .switchyard.json and its default merge strategy", async ({
  page,
  makeRepo,
  yard,
}) => {
  const repo = makeRepo("yard-e2e-setup-");
  writeFileSync(path.join(repo, ".switchyard.json"), JSON.stringify({ setup: ["npm ci"] }));
  git(repo, "add", ".switchyard.json");
  git(repo, "commit", "-qm", "setup config");
  const project = (await yard(["--json", "project", "add", repo])).json.project;
  await page.goto(`/?project=${project.id}`);
  await page.getByRole("button", { name: "Project settings" }).click();
  const dialog = page.getByRole("dialog", { name: `Project settings: ${project.name}` });
  await expect(dialog.getByTestId("committed-config")).toContainText('"npm ci"');
  const field = dialog.getByRole("textbox", { name: "Override for this project (JSON)" });
  await field.fill('{"copy": ["../outside"]}');
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog.getByRole("alert")).toContainText("repoConfig.copy.0");
  await field.fill('{"setup": ["pnpm install"], "ports": 2}');
  await expect(dialog.getByRole("combobox", { name: "Default merge strategy" })).toHaveValue("merge");
  await dialog.getByRole("combobox", { name: "Default merge strategy" }).selectOption({ label: "Squash and merge" });
  await dialog.getByRole("button", { name: "Save settings" }).click();
  await expect(dialog).toBeHidden();
  const shown = (await yard(["--json", "project", "config", project.id])).json;
  expect(shown.effective).toMatchObject({ setup: ["pnpm install"], ports: 2 });
  const listed = (await yard(["--json", "project", "list"])).json.projects;
  expect(listed.find((p: { id: string }) => p.id === project.id)).toMatchObject({ mergeStrategy: "squash" });
});
