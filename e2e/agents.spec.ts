// The Agents page in a real browser: the built-in profiles (marked, not editable or removable),
// adding a profile with an environment variable through the dialog (an unknown placeholder refused
// at the Command field; the value never reaches the page nor `yard agent list`), editing it
// (command changed, a variable removed), removing it (refused while a running task uses it, then
// confirmed), and "Try it": a demo-agent profile gets ready, a program showing Claude Code's trust
// dialog is reported as stopped there with the dialog's text. Light/dark screenshots.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { expect, test, type YardCli } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");
const TRUST_PROMPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "programs/trust-prompt.mjs");
const DEMO = ["{{node}}", "{{yardRoot}}/agents/demo/demo-agent.mjs"];

const row = (page: Page, id: string) => page.getByRole("row", { name: id, exact: true });
const outcome = (page: Page) => page.getByRole("status", { name: "Trial outcome" });

async function openAgents(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Agents" }).click();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole("heading", { name: "Agents", level: 1 })).toBeVisible();
  await expect(row(page, "demo")).toBeVisible();
}

async function addByCli(yard: YardCli, id: string, argv: string[], flags: string[] = []) {
  const r = await yard(["--json", "agent", "add", id, ...flags, "--", ...argv]);
  expect(r.code, r.stderr).toBe(0);
}

async function listByCli(
  yard: YardCli,
): Promise<{ stdout: string; agents: Array<{ id: string; argv: string[]; envNames: string[]; env?: unknown }> }> {
  const r = await yard(["--json", "agent", "list"]);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, agents: r.json.agents };
}

test("the built-in profiles are listed, marked built-in, and cannot be edited or removed; their environment can be set", async ({
  page,
  yard,
}) => {
  await openAgents(page);
  for (const id of ["claude-code", "codex", "shell", "demo"]) {
    const r = row(page, id);
    await expect(r).toContainText("built-in");
    await expect(r.getByRole("button", { name: "Edit", exact: true })).toBeDisabled();
    await expect(r.getByRole("button", { name: "Remove", exact: true })).toBeDisabled();
    await expect(r.getByRole("button", { name: "Try it" })).toBeEnabled();
  }
  // The reason is on screen and is the disabled buttons' description.
  await expect(row(page, "demo").getByRole("button", { name: "Remove", exact: true })).toHaveAccessibleDescription(
    /cannot be edited or removed/,
  );
  await expect(row(page, "demo")).toContainText("agents/demo/demo-agent.mjs");

  // A built-in's environment can still be set: that dialog has no command to change.
  await row(page, "claude-code").getByRole("button", { name: "Environment" }).click();
  const dialog = page.getByRole("dialog", { name: "Edit agent claude-code" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Only its environment can be changed");
  await expect(dialog.getByLabel("Command")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await row(page, "shell").getByRole("button", { name: "Environment" }).click();
  const env = page.getByRole("dialog", { name: "Edit agent shell" });
  await env.getByLabel("Variable name").fill("SHELL_TOKEN");
  await env.getByLabel("Variable value").fill("built-in-secret-value");
  await env.getByRole("button", { name: "Save" }).click();
  await expect(env).toBeHidden();
  await expect(row(page, "shell").getByRole("list", { name: "Environment of shell" })).toHaveText("SHELL_TOKEN");
  expect(await page.content()).not.toContain("built-in-secret-value");
  await row(page, "shell").getByRole("button", { name: "Environment" }).click();
  await env.getByRole("button", { name: "Remove SHELL_TOKEN" }).click();
  await env.getByRole("button", { name: "Save" }).click();
  await expect(env).toBeHidden();
  await expect(row(page, "shell")).not.toContainText("SHELL_TOKEN");
  expect((await listByCli(yard)).agents.find((a) => a.id === "shell")!.envNames).toEqual([]);
});

test("add a profile with a secret through the dialog: it is listed by name, its value is never shown", async ({
  page,
  yard,
}) => {
  const SECRET = `sk-e2e-${Date.now().toString(36)}-never-shown`;
  await openAgents(page);
  await page.getByRole("button", { name: "Add agent" }).click();
  const dialog = page.getByRole("dialog", { name: "Add agent" });
  await expect(dialog.getByLabel("Profile id")).toBeFocused();
  // The placeholders are explained next to the field.
  await expect(dialog.getByLabel("Command")).toHaveAccessibleDescription(/\{\{yardRoot\}\}.*this Switchyard checkout/);

  await dialog.getByLabel("Profile id").fill("ui-agent");
  await dialog.getByLabel("Command").fill(["{{node}}", "{{prompt}}"].join("\n"));
  await dialog.getByLabel("Role").selectOption("reviewer");
  await dialog.getByRole("checkbox", { name: "Hooks" }).check();
  await dialog.getByLabel("Variable name").fill("UI_SECRET");
  await dialog.getByLabel("Variable value").fill(SECRET);
  await dialog.getByRole("button", { name: "Save" }).click();
  // An unknown placeholder: the server's error under the Command field, nothing saved.
  await expect(dialog.getByRole("alert")).toContainText("Unknown placeholder {{prompt}}");
  await expect(dialog.getByLabel("Command")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Command")).toBeFocused();
  expect((await listByCli(yard)).agents.map((a) => a.id)).not.toContain("ui-agent");

  await dialog.getByLabel("Command").fill([...DEMO, "--name", "ui agent"].join("\n"));
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  const r = row(page, "ui-agent");
  await expect(r).toBeVisible();
  await expect(r).toContainText("reviewer");
  await expect(r).toContainText('"ui agent"');
  await expect(r.getByRole("list", { name: "Environment of ui-agent" })).toHaveText("UI_SECRET");
  expect(await page.content()).not.toContain(SECRET);

  // The edit dialog says the variable is set, without its value.
  await r.getByRole("button", { name: "Edit", exact: true }).click();
  const edit = page.getByRole("dialog", { name: "Edit agent ui-agent" });
  const variable = edit.getByRole("listitem", { name: "UI_SECRET" });
  await expect(variable).toContainText("set");
  await expect(variable.getByLabel("New value for UI_SECRET")).toHaveValue("");
  expect(await page.content()).not.toContain(SECRET);
  await edit.getByRole("button", { name: "Cancel" }).click();
  await expect(edit).toBeHidden();

  // After a reload too, and through the CLI: names only.
  await page.reload();
  await expect(row(page, "ui-agent")).toContainText("UI_SECRET");
  expect(await page.content()).not.toContain(SECRET);
  const { stdout, agents } = await listByCli(yard);
  expect(stdout).not.toContain(SECRET);
  const listed = agents.find((a) => a.id === "ui-agent")!;
  expect(listed.envNames).toEqual(["UI_SECRET"]);
  expect(listed.env).toBeUndefined();
  expect(listed.argv).toEqual([...DEMO, "--name", "ui agent"]);
});

test("edit a profile: a new command, one variable removed, one added, the other kept", async ({ page, yard }) => {
  await addByCli(yard, "edit-me", DEMO, ["--env", "KEEP_ME=kept-value-1", "--env", "DROP_ME=dropped-value-2"]);
  await openAgents(page);
  await row(page, "edit-me").getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit agent edit-me" });
  await expect(dialog.getByLabel("Command")).toHaveValue(DEMO.join("\n"));
  await dialog.getByLabel("Command").fill([...DEMO, "--name", "edited"].join("\n"));
  await dialog.getByRole("button", { name: "Remove DROP_ME" }).click();
  await dialog.getByRole("button", { name: "Add variable" }).click();
  await dialog.getByLabel("Variable name").fill("NEW_ONE");
  await dialog.getByLabel("Variable value").fill("new-value-3");
  await expect(dialog.getByRole("listitem", { name: "DROP_ME" })).toContainText("will be removed");
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toBeHidden();

  await expect(row(page, "edit-me")).toContainText("--name edited");
  await expect(
    row(page, "edit-me").getByRole("list", { name: "Environment of edit-me" }).getByRole("listitem"),
  ).toHaveText(["KEEP_ME", "NEW_ONE"]);
  expect(await page.content()).not.toMatch(/kept-value-1|dropped-value-2|new-value-3/);
  const listed = (await listByCli(yard)).agents.find((a) => a.id === "edit-me")!;
  expect(listed.argv).toEqual([...DEMO, "--name", "edited"]);
  expect(listed.envNames).toEqual(["KEEP_ME", "NEW_ONE"]);
});

test("remove asks first, is refused while a running task uses the profile, then removes it", async ({
  page,
  yard,
  makeRepo,
}) => {
  await addByCli(yard, "remove-me", DEMO, ["--hooks"]);
  const project = (await yard(["--json", "project", "add", makeRepo("yard-e2e-agents-"), "--name", "agents-demo"])).json
    .project.id as string;
  const started = await yard([
    "--json",
    "task",
    "start",
    "--project",
    project,
    "--agent",
    "remove-me",
    "--title",
    "busy",
    "--objective",
    "sleep 120000",
  ]);
  expect(started.code, started.stderr).toBe(0);
  await openAgents(page);

  // Escape leaves it alone.
  await row(page, "remove-me").getByRole("button", { name: "Remove", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Remove agent remove-me?" });
  await expect(confirm.getByRole("button", { name: "Cancel" })).toBeFocused();
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();
  await expect(row(page, "remove-me")).toBeVisible();

  // A running task uses it: the server's refusal, shown in the dialog.
  await row(page, "remove-me").getByRole("button", { name: "Remove", exact: true }).click();
  await confirm.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(confirm.getByRole("alert")).toContainText("1 running task(s) use the profile remove-me");
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Cancel" }).click();

  expect((await yard(["--json", "task", "cancel", started.json.task.id])).code).toBe(0);
  await row(page, "remove-me").getByRole("button", { name: "Remove", exact: true }).click();
  await confirm.getByRole("button", { name: "Remove", exact: true }).click();
  await expect(confirm).toBeHidden();
  await expect(row(page, "remove-me")).toHaveCount(0);
  expect((await listByCli(yard)).agents.map((a) => a.id)).not.toContain("remove-me");
});

test("Try it: a demo-agent profile gets ready; the screen and its pane are shown", async ({ page, yard }) => {
  await addByCli(yard, "try-demo", [...DEMO, "--name", "trybot"], ["--hooks"]);
  await openAgents(page);
  await row(page, "try-demo").getByRole("button", { name: "Try it" }).click();
  const trial = page.getByRole("region", { name: "Try it: try-demo" });
  await expect(outcome(page)).toContainText("ready", { timeout: 30_000 });
  await expect(trial.getByLabel("Screen")).toContainText("trybot");
  const link = trial.getByRole("link", { name: "Open pane" });
  await expect(link).toHaveAttribute("href", /^\/panes\/[^/]+$/);
  const paneId = (await link.getAttribute("href"))!.split("/").pop()!;

  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, "agents-try-light.png"), fullPage: true });

  // Stop ends the scratch pane.
  await trial.getByRole("button", { name: "Stop" }).click();
  await expect(outcome(page)).toContainText("exited since");
  const pane = await yard(["--json", "pane", "get", paneId]);
  expect(pane.json.pane.live).toBe(false);
});

test("Try it: a program at a start-up dialog is reported as stopped there, with the dialog's text", async ({
  page,
  yard,
  makeDir,
}) => {
  // A program named `claude` counts as Claude Code (core/agents/kinds.ts), so the server reads its
  // screen for start-up dialogs; this one only draws the trust dialog and waits there.
  const bin = path.join(makeDir("yard-e2e-fake-claude-"), "claude");
  writeFileSync(bin, `#!${process.execPath}\n${readFileSync(TRUST_PROMPT, "utf8")}`, { mode: 0o755 });
  await addByCli(yard, "try-trust", [bin]);
  await openAgents(page);
  await row(page, "try-trust").getByRole("button", { name: "Try it" }).click();
  const trial = page.getByRole("region", { name: "Try it: try-trust" });
  await expect(outcome(page)).toContainText("stopped at a start-up dialog", { timeout: 30_000 });
  await expect(outcome(page)).toContainText("trust this folder");
  await expect(trial.getByLabel("Dialog text")).toContainText("Is this a project you created or one you trust?");
  await expect(trial.getByLabel("Screen")).toContainText("Yes, I trust this folder");
  await expect(outcome(page)).not.toContainText("ready");

  // Both themes read: screenshots of the page with the dialog outcome, light then dark.
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, "agents-dialog-light.png"), fullPage: true });
  await page.getByRole("button", { name: "Dark theme" }).click();
  await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  await page.screenshot({ path: path.join(SCREENSHOTS, "agents-dialog-dark.png"), fullPage: true });
  await row(page, "try-trust").getByRole("button", { name: "Edit", exact: true }).click();
  await page.screenshot({ path: path.join(SCREENSHOTS, "agents-edit-dark.png") });
  await page.keyboard.press("Escape");
  await trial.getByRole("button", { name: "Stop" }).click();
  await expect(outcome(page)).toContainText("exited");
  await page.getByRole("button", { name: "Light theme" }).click();
});
