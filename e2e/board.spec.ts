// Foundation acceptance in a real browser: login link, welcome state, adding projects through the
// dialog (server validation shown inline), the five columns, the project in the URL, keyboard use,
// the theme toggle, and the 401 page for a browser without the login cookie.
import { mkdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test, startDemoTask } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

const COLUMNS = [
  ["backlog", "Backlog"],
  ["in_progress", "In progress"],
  ["needs_you", "Needs you"],
  ["review", "Review"],
  ["done", "Done"],
] as const;

const projectSelect = (page: Page) => page.getByRole("combobox", { name: "Project" });
const addDialog = (page: Page) => page.getByRole("dialog", { name: "Add project" });

/** The registered projects, straight from the API with the page's session cookie. */
async function listProjects(page: Page): Promise<Array<{ id: string; name: string; path: string }>> {
  const res = await page.request.get("/api/trpc/projects.list");
  expect(res.status()).toBe(200);
  return (await res.json()).result.data;
}

async function expectBoardColumns(page: Page) {
  const sections = page.locator("section[data-column]");
  await expect(sections).toHaveCount(COLUMNS.length);
  for (const [i, [key, title]] of COLUMNS.entries()) {
    const section = sections.nth(i);
    await expect(section).toHaveAttribute("data-column", key);
    await expect(section.getByRole("heading", { level: 2 })).toContainText(title);
  }
  // The board data arrived: every column shows a task count instead of the loading mark.
  await expect(page.getByText("No tasks in this project yet")).toBeVisible();
}

test.describe("first run", () => {
  test.use({ freshServer: true });

  test("welcome state, a non-git path is refused inline, then a real repository gets a board", async ({
    page,
    makeDir,
    makeRepo,
  }) => {
    await expect(page.getByRole("heading", { name: "Welcome to Switchyard" })).toBeVisible();
    await expect(projectSelect(page)).toBeDisabled();
    await expect(page.locator("section[data-column]")).toHaveCount(0);

    await page.getByRole("button", { name: "Add your first project" }).click();
    const dialog = addDialog(page);
    await expect(dialog).toBeVisible();
    const pathInput = dialog.locator('input[name="path"]');
    await expect(pathInput).toBeFocused();

    // A directory that is not a git repository: BAD_PARAMS, shown under the field.
    const notRepo = makeDir("yard-e2e-not-a-repo-");
    await pathInput.fill(notRepo);
    await dialog.getByRole("button", { name: "Add project", exact: true }).click();
    const alert = dialog.getByRole("alert");
    await expect(alert).toContainText("is not a git repository");
    await expect(alert).toContainText(path.basename(notRepo));
    await expect(pathInput).toHaveAttribute("aria-invalid", "true");
    await expect(dialog).toBeVisible();
    // Nothing was registered.
    await expect(projectSelect(page)).toBeDisabled();
    expect(await listProjects(page)).toEqual([]);

    // A real repository: the dialog closes and the board appears.
    const repo = makeRepo("yard-e2e-first-");
    await pathInput.fill(repo);
    await dialog.getByRole("button", { name: "Add project", exact: true }).click();
    await expect(dialog).toBeHidden();

    const listed = await listProjects(page);
    expect(listed).toHaveLength(1);
    const project = listed[0]!;
    expect(project.path).toBe(realpathSync(repo));
    expect(project.name).toBe(path.basename(repo));

    await expect(projectSelect(page)).toBeEnabled();
    await expect(projectSelect(page)).toHaveValue(project.id);
    await expect(projectSelect(page).locator("option:checked")).toHaveText(project.name);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(project.name);
    await expect(page.getByRole("heading", { name: "Welcome to Switchyard" })).toBeHidden();
    await expectBoardColumns(page);
    await expect(page).toHaveURL((u) => u.pathname === "/" && u.searchParams.get("project") === project.id);

    // A reload keeps the selected project.
    await page.reload();
    await expect(page).toHaveURL((u) => u.searchParams.get("project") === project.id);
    await expect(projectSelect(page)).toHaveValue(project.id);
    await expectBoardColumns(page);
  });
});

test("keyboard: Enter opens the dialog, Escape closes it, Enter submits it", async ({ page, makeRepo }) => {
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const addButton = page.getByRole("button", { name: "+ Add project" });
  const dialog = addDialog(page);
  const pathInput = dialog.locator('input[name="path"]');

  await addButton.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(pathInput).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await addButton.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(pathInput).toBeFocused();
  const repo = makeRepo("yard-e2e-keys-");
  await page.keyboard.type(repo);
  await page.keyboard.press("Tab");
  await expect(dialog.locator('input[name="name"]')).toBeFocused();
  await page.keyboard.type("keyboard-demo");
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();

  await expect(projectSelect(page).locator("option:checked")).toHaveText("keyboard-demo");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("keyboard-demo");
  await expect(page).toHaveURL(/[?&]project=prj/);
  await expectBoardColumns(page);
});

test("theme: Dark survives a reload, Light removes it, System follows the OS; screenshots", async ({
  page,
  makeRepo,
  yard,
}) => {
  const added = await yard(["--json", "project", "add", makeRepo("yard-e2e-theme-"), "--name", "theme-demo"]);
  expect(added.code, added.stderr).toBe(0);
  await page.goto(`/?project=${added.json.project.id}`);
  await expectBoardColumns(page);

  const html = page.locator("html");
  const theme = page.getByRole("group", { name: "Theme" });
  const light = theme.getByRole("button", { name: "Light theme" });
  const dark = theme.getByRole("button", { name: "Dark theme" });
  const system = theme.getByRole("button", { name: "Follow system theme" });
  mkdirSync(SCREENSHOTS, { recursive: true });

  await light.click();
  await expect(light).toHaveAttribute("aria-pressed", "true");
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.screenshot({ path: path.join(SCREENSHOTS, "board-light.png"), fullPage: true });

  await dark.click();
  await expect(dark).toHaveAttribute("aria-pressed", "true");
  await expect(light).toHaveAttribute("aria-pressed", "false");
  await expect(html).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(dark).toHaveAttribute("aria-pressed", "true");
  await expectBoardColumns(page);
  await page.screenshot({ path: path.join(SCREENSHOTS, "board-dark.png"), fullPage: true });

  await light.click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(light).toHaveAttribute("aria-pressed", "true");
  await expect(html).not.toHaveClass(/\bdark\b/);

  await page.emulateMedia({ colorScheme: "dark" });
  await system.click();
  await expect(system).toHaveAttribute("aria-pressed", "true");
  await expect(html).toHaveClass(/\bdark\b/);
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html).not.toHaveClass(/\bdark\b/);
});

test("a browser without the login cookie gets the 401 login-token page", async ({ browser, server }) => {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const res = await page.goto(`${server.url}/`);
    expect(res?.status()).toBe(401);
    await expect(page.getByText("This board needs its login token.")).toBeVisible();
    await expect(page.getByText("Open the login link printed where the board was started")).toBeVisible();
    expect((await context.cookies()).length).toBe(0);

    const api = await context.request.get(`${server.url}/api/trpc/projects.list`);
    expect(api.status()).toBe(401);

    const wrong = await page.goto(`${server.url}/login?token=not-the-token`);
    expect(wrong?.status()).toBe(401);
    await expect(page.getByText("That login link is not valid for this board.")).toBeVisible();
    expect((await context.cookies()).length).toBe(0);
  } finally {
    await context.close();
  }
});

test("a working task's pulse stops for a browser that asks for reduced motion", async ({ page, makeRepo, yard }) => {
  const repo = makeRepo();
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "motion"])).json.project.id as string;
  const started = await startDemoTask(yard, { project: projectId, title: "pulse", objective: "sleep 60000" });
  const dot = page.locator("[data-testid=state-badge][data-state=working] > span[aria-hidden]").first();
  const iterations = () => dot.evaluate((e) => getComputedStyle(e).animationIterationCount);
  try {
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto(`/?project=${projectId}`);
    await expect(dot).toBeVisible({ timeout: 30_000 });
    expect(await iterations()).toBe("infinite");
    await page.emulateMedia({ reducedMotion: "reduce" });
    await expect.poll(iterations).toBe("1");
  } finally {
    const canceled = await yard(["--json", "task", "cancel", started.json.task.id]);
    expect(canceled.code, canceled.stderr).toBe(0);
  }
});

// A page reads its data, then its socket subscribes to events: a change in between is never sent
// to it. Here the page's subscriptions are held back until the task has changed; once they are
// acknowledged, the page must refetch what it read before and show the change.
test("a change between a page's first read and its event subscription still reaches the page", async ({
  page,
  makeRepo,
  yard,
}) => {
  const repo = makeRepo();
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "race"])).json.project.id as string;
  const started = await yard([
    "--json",
    "task",
    "start",
    "--project",
    projectId,
    "--backlog",
    "--title",
    "held",
    "--objective",
    "wait",
  ]);
  expect(started.code, started.stderr).toBe(0);
  const taskId = started.json.task.id as string;

  const held: string[] = [];
  let release: (() => void) | null = null;
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    let holding = true;
    release = () => {
      holding = false;
      for (const m of held.splice(0)) server.send(m);
    };
    ws.onMessage((m) => {
      if (holding && typeof m === "string" && m.includes('"events:subscribe"')) held.push(m);
      else server.send(m);
    });
  });
  await page.goto(`/tasks/${taskId}`);
  await expect(page.getByTestId("task-state-words")).toHaveText("backlog");
  await expect.poll(() => held.length, { message: "the page's event subscriptions, held back" }).toBeGreaterThan(0);

  const canceled = await yard(["--json", "task", "cancel", taskId]);
  expect(canceled.code, canceled.stderr).toBe(0);
  await expect(page.getByTestId("task-state-words")).toHaveText("backlog"); // no event reached the page
  release!();
  await expect(page.getByTestId("task-state-words")).toHaveText("canceled");
});

// A toast for a task's outcome names the task even on a page that never read it (here the agents
// page: the title is asked for), and its title links to the task's page, by keyboard too.
test("an outcome toast names its task and links to it", async ({ page, makeRepo, yard }) => {
  const repo = makeRepo();
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "toasts"])).json.project.id as string;
  const socket = page.waitForEvent("websocket");
  await page.goto("/agents");
  // The page's event subscriptions are acknowledged (an ack carries the head seq) before the task runs.
  await (await socket).waitForEvent("framereceived", (f) => String(f.payload).includes('"head"'));
  const started = await startDemoTask(yard, {
    project: projectId,
    title: "Toasted task",
    objective: "report completed toasted",
  });
  const id = started.json.task.id as string;
  const toasts = page.getByRole("region", { name: "Notifications" });
  const link = toasts.getByRole("link", { name: "Toasted task: completed" });
  await expect(link).toBeVisible({ timeout: 60_000 });
  await expect(toasts).not.toContainText("A task");
  await link.hover(); // a toast under the pointer stays while it is read
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(400); // colour transitions settle
    await toasts.screenshot({ path: path.join(SCREENSHOTS, `toast-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
  // The toasts come last on the page: backwards from its start, the toast's dismiss button, then its link.
  await page.keyboard.press("Shift+Tab");
  await expect(toasts.getByRole("button", { name: "Dismiss notification" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await expect(link).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tasks/${id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Toasted task");
});

test("New task waits for the project list: no start goes out without the project its select shows", async ({
  page,
  makeRepo,
  yard,
}) => {
  const repo = makeRepo();
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "slow-list"])).json.project.id as string;
  const tasksOf = async () =>
    (await yard(["--json", "task", "list", "--project", projectId])).json.tasks as Array<{
      title: string;
      state: string;
    }>;
  // The project list is held back until the test lets it through.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(/\/api\/trpc\/[^?]*projects\.list/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/");
  await page.getByRole("button", { name: "New task" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New task" });
  await dialog.getByLabel("Objective").fill("report completed listed");
  await expect(dialog.getByRole("button", { name: "Start task" })).toBeDisabled();
  await expect(dialog.getByRole("button", { name: "Save to backlog" })).toBeDisabled();
  expect(await tasksOf()).toEqual([]);
  release();
  await expect(dialog.getByRole("combobox", { name: "Project" })).toHaveValue(/.+/);
  await dialog.getByRole("combobox", { name: "Project" }).selectOption(projectId);
  await dialog.getByRole("button", { name: "Save to backlog" }).click();
  await expect(dialog).toBeHidden({ timeout: 30_000 });
  expect((await tasksOf()).map((t) => [t.title, t.state])).toEqual([["report completed listed", "backlog"]]);
});
