// Live terminals in a real browser: start a shell from the /panes form, type into xterm, see the
// PTY's answer both in the page and in the server's rendered screen (`yard pane read`), a second
// viewer, a reload restoring the screen from the snapshot, the list updating live, Kill, inline
// validation, an unknown pane id, and light/dark screenshots.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

const rows = (page: Page) => page.locator("[data-testid=terminal] .xterm-rows");
const badge = (page: Page) => page.locator("header [data-testid=lifecycle-badge]");

/** The terminal painted its first snapshot and has keyboard focus. */
async function terminalReady(page: Page) {
  await expect(page.locator("[data-testid=terminal] .xterm-helper-textarea")).toBeFocused();
}

async function setTheme(page: Page, theme: "light" | "dark") {
  await page.getByRole("button", { name: theme === "dark" ? "Dark theme" : "Light theme" }).click();
  if (theme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
}

test.describe("a fresh server", () => {
  // Starts with no panes: the empty state is part of what is checked.
  test.use({ freshServer: true });

  test("a shell started from /panes takes keystrokes, shows output to two viewers and survives a reload", async ({
    page,
    context,
    makeDir,
    yard,
  }) => {
    // About 20 s on an idle machine; the margin is for a busy one.
    test.setTimeout(120_000);
    const dir = makeDir("yard-e2e-term-");

    await page.goto("/panes");
    await expect(page.getByRole("heading", { name: "No panes yet" })).toBeVisible();
    await expect(page.getByText("Start a shell or the demo agent to try it", { exact: false })).toBeVisible();
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, "panes-empty-light.png") });

    const form = page.getByRole("form", { name: "Start a pane" });
    await form.getByText("Command", { exact: true }).click();
    await form.locator('input[name="command"]').fill("bash --norc -i");
    await form.locator('input[name="cwd"]').fill(dir);
    await form.locator('input[name="label"]').fill("e2e shell");
    await form.getByRole("button", { name: "Start" }).click();

    await expect(page).toHaveURL(/\/panes\/pane[a-z0-9]+$/);
    const paneId = new URL(page.url()).pathname.split("/").pop()!;
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("e2e shell");
    await expect(badge(page)).toBeVisible();
    await expect(page.getByTestId("pane-cwd")).toContainText(path.basename(dir));
    await terminalReady(page);

    // Keystrokes through xterm → socket.io → PTY; the answer comes back the same way.
    await page.keyboard.type("echo hello-$((6*7))");
    await page.keyboard.press("Enter");
    await expect(rows(page)).toContainText("hello-42");

    // The bytes really reached the PTY: the server's rendered screen shows the result too.
    await expect
      .poll(async () => {
        const r = await yard(["--json", "pane", "read", paneId]);
        return r.code === 0 ? String(r.json.text) : r.stderr;
      })
      .toContain("hello-42");

    // A second viewer attaches from the snapshot and then follows live output.
    const second = await context.newPage();
    await second.goto(`/panes/${paneId}`);
    await expect(rows(second)).toContainText("hello-42");
    await page.bringToFront();
    await page.locator("[data-testid=terminal]").click();
    await page.keyboard.type("echo again-$((40+2))");
    await page.keyboard.press("Enter");
    await expect(rows(page)).toContainText("again-42");
    await expect(rows(second)).toContainText("again-42");
    await second.close();

    // Reload: the screen is restored from the server's snapshot.
    await page.reload();
    await terminalReady(page);
    await expect(rows(page)).toContainText("hello-42");
    await expect(rows(page)).toContainText("again-42");
    await expect(badge(page)).toBeVisible();

    // A dropped connection: socket.io reconnects, the page re-attaches and repaints from a fresh
    // snapshot, and typing works again.
    type Win = { __yardSocket: { connected: boolean; io: { engine: { close(): void } } } };
    expect(
      await page.evaluate(() => {
        const s = (window as unknown as Win).__yardSocket;
        s.io.engine.close();
        return s.connected;
      }),
    ).toBe(false);
    await page.waitForFunction(() => (window as unknown as Win).__yardSocket.connected);
    await expect(page.getByRole("status").filter({ hasText: "Reconnecting" })).toBeHidden();
    await terminalReady(page);
    await expect(rows(page)).toContainText("hello-42");
    await page.keyboard.type("echo back-$((1+2))");
    await page.keyboard.press("Enter");
    await expect(rows(page)).toContainText("back-3");

    // The list shows the pane, running, and links to it.
    await page.goto("/panes");
    const row = page.locator(`tr[data-pane-id="${paneId}"]`);
    await expect(row).toContainText("e2e shell");
    await expect(row.getByTestId("lifecycle-badge")).not.toHaveAttribute("data-lifecycle", "exited");

    // A pane started elsewhere (the CLI) appears without a reload: the list follows the events.
    const cli = await yard([
      "--json",
      "pane",
      "spawn",
      "--cwd",
      dir,
      "--label",
      "from the cli",
      "--",
      "bash",
      "--norc",
      "-i",
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    const cliPane = cli.json.pane as { id: string };
    await expect(page.locator(`tr[data-pane-id="${cliPane.id}"]`)).toContainText("from the cli");

    // Kill (with a confirmation) from the pane page: the badge turns to exited, input stops.
    await row.getByRole("link").click();
    await expect(page).toHaveURL(new RegExp(`/panes/${paneId}$`));
    await terminalReady(page);
    await page.getByRole("button", { name: "Kill", exact: true }).click();
    await page.getByRole("button", { name: "Yes, kill" }).click();
    await expect(badge(page)).toHaveAttribute("data-lifecycle", "exited");
    await expect(badge(page)).toContainText("exited");
    await expect(page.getByRole("button", { name: "Kill", exact: true })).toBeHidden();

    const killed = await yard(["--json", "pane", "kill", cliPane.id]);
    expect(killed.code, killed.stderr).toBe(0);
  });
});

test.describe("panes", () => {
  test("the spawn form shows validation inline; an unknown pane id gets a clear page", async ({ page }) => {
    await page.goto("/panes");
    const form = page.getByRole("form", { name: "Start a pane" });
    await expect(form.locator('select[name="agent"]')).toContainText("Shell");

    // Relative path: refused before asking the server.
    const cwd = form.locator('input[name="cwd"]');
    await cwd.fill("relative/dir");
    await form.getByRole("button", { name: "Start" }).click();
    await expect(form.getByRole("alert")).toContainText("absolute path");
    await expect(cwd).toHaveAttribute("aria-invalid", "true");

    // A directory that does not exist: the server's message, under the field.
    await cwd.fill("/nonexistent/yard-e2e-dir");
    await form.getByRole("button", { name: "Start" }).click();
    await expect(form.getByRole("alert")).toContainText("is not a directory");
    await expect(cwd).toHaveAttribute("aria-invalid", "true");
    mkdirSync(SCREENSHOTS, { recursive: true });
    await form.screenshot({ path: path.join(SCREENSHOTS, "panes-form-error-light.png") });
    await expect(page).toHaveURL(/\/panes$/);

    // An unclosed quote in a custom command.
    await form.getByText("Command", { exact: true }).click();
    await form.locator('input[name="command"]').fill("bash -c 'echo hi");
    await cwd.fill("/tmp");
    await form.getByRole("button", { name: "Start" }).click();
    await expect(form.getByRole("alert")).toContainText("Unclosed");

    await page.goto("/panes/paneunknown0000");
    await expect(page.getByRole("heading", { name: "No such pane" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("paneunknown0000");
    await page.goto("/panes/not-a-pane");
    await expect(page.getByRole("heading", { name: "No such pane" })).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOTS, "pane-not-found-light.png") });
    await page.getByRole("link", { name: "← All panes" }).click();
    await expect(page).toHaveURL(/\/panes$/);
  });

  test("screenshots, light and dark; the terminal follows the theme live", async ({ page, makeDir, yard }) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    const dir = makeDir("yard-e2e-shot-");
    const shell = await yard([
      "--json",
      "pane",
      "spawn",
      "--cwd",
      dir,
      "--label",
      "shell",
      "--",
      "bash",
      "--norc",
      "-i",
    ]);
    expect(shell.code, shell.stderr).toBe(0);
    const paneId = shell.json.pane.id as string;
    const failing = await yard(["--json", "pane", "spawn", "--cwd", dir, "--", "bash", "-c", "exit 3"]);
    expect(failing.code, failing.stderr).toBe(0);

    await page.goto(`/panes/${paneId}`);
    await terminalReady(page);
    await page.keyboard.type("printf '\\e[32mgreen\\e[0m \\e[1;34mbold blue\\e[0m \\e[31mred\\e[0m\\n'; ls -la");
    await page.keyboard.press("Enter");
    await expect(rows(page)).toContainText("bold blue");

    const terminal = page.getByTestId("terminal");
    await setTheme(page, "light");
    await expect(terminal).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await page.screenshot({ path: path.join(SCREENSHOTS, "pane-light.png") });
    await setTheme(page, "dark");
    await expect(terminal).toHaveCSS("background-color", "rgb(13, 17, 23)");
    await expect(terminal.locator(".xterm-viewport")).toHaveCSS("background-color", "rgb(13, 17, 23)");
    await page.screenshot({ path: path.join(SCREENSHOTS, "pane-dark.png") });

    await page.goto("/panes");
    const crashed = page.locator(`[data-attention="crashed"][href="/panes/${failing.json.pane.id}"]`);
    await expect(
      page.locator(`tr[data-pane-id="${failing.json.pane.id}"] [data-testid=lifecycle-badge]`),
    ).toContainText("exited (code 3)");
    await expect(crashed).toContainText("crashed");
    await page.screenshot({ path: path.join(SCREENSHOTS, "panes-dark.png"), fullPage: true });
    await setTheme(page, "light");
    await page.screenshot({ path: path.join(SCREENSHOTS, "panes-light.png"), fullPage: true });

    // The crashed pane, from "Needs you": its badge says how it ended, no Kill button; having
    // seen it clears it from the strip (the list follows the pane.seen event).
    await crashed.click();
    await expect(page).toHaveURL(new RegExp(`/panes/${failing.json.pane.id}$`));
    await expect(badge(page)).toHaveText("exited (code 3)");
    await expect(page.getByRole("button", { name: "Kill", exact: true })).toBeHidden();
    await page.screenshot({ path: path.join(SCREENSHOTS, "pane-exited-light.png") });
    await page.getByRole("link", { name: "← Panes" }).click();
    await expect(page.locator(`tr[data-pane-id="${failing.json.pane.id}"]`)).toBeVisible();
    await expect(crashed).toHaveCount(0);
  });
});
