// Turn snapshots in a real browser with the demo agent: the Changes tab's turn picker ("All
// changes" or "Turn N": what that turn changed), and "Revert turn N…" behind a confirmation that
// lists the files it changes and says what it leaves alone; Cancel changes nothing, the revert
// restores the files (checked on disk), is recorded as a turn of its own, and the agent's commit
// stays on the branch. Refused with the agent busy. Screenshots of the confirmation in both themes.
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { git } from "../tests/helpers/git";
import { expect, test, type YardCli } from "./fixtures";

const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

async function shootBothThemes(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(400); // colour transitions settle
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });
}

/** A follow-up prompt to the task's agent, and the end of its turn. */
async function followUp(yard: YardCli, id: string, text: string) {
  const ends = async () =>
    (await yard(["--json", "task", "events", id])).json.events.filter(
      (e: { type: string; payload: { to?: string } }) => e.type === "task.state" && e.payload.to === "input_required",
    ).length;
  const before = await ends();
  expect((await yard(["task", "follow-up", id, text])).code).toBe(0);
  await expect.poll(ends, { timeout: 60_000 }).toBeGreaterThan(before);
}

test("the turn picker shows one turn's changes; Revert turn confirms what changes, then restores the files", async ({
  page,
  makeRepo,
  yard,
}) => {
  test.setTimeout(180_000);
  const repo = makeRepo("yard-e2e-turns-");
  const started = await yard([
    "--json",
    "task",
    "start",
    "--repo",
    repo,
    "--agent",
    "demo",
    "--title",
    "Turns",
    "--objective",
    "write a.txt one\ncommit add a\nnoreport",
  ]);
  expect(started.code, started.stderr).toBe(0);
  const id: string = started.json.task.id;
  const wt: string = started.json.task.worktreePath;
  expect((await yard(["task", "wait", id, "--until", "input_required", "--timeout-ms", "60000"])).code).toBe(0);
  await followUp(yard, id, "append a.txt two\nuntracked loose.txt");
  await expect
    .poll(async () => (await yard(["--json", "task", "turns", id])).json.turns.length, { timeout: 30_000 })
    .toBe(2);
  const head = git(wt, "rev-parse", "HEAD");

  await page.goto(`/tasks/${id}?tab=changes`);
  const picker = page.getByRole("combobox", { name: "Turn" });
  await expect(picker).toHaveValue("");
  await expect(picker.getByRole("option")).toHaveText([
    "All changes",
    "Turn 1 · round 1 · 1 file",
    "Turn 2 · round 1 · 2 files",
  ]);
  await expect(page.getByTestId("diff-summary")).toContainText("2 files changed");

  // One turn's changes: turn 2 edited a.txt and made loose.txt; turn 1's line is not in it.
  await picker.selectOption("2");
  await expect(page.getByTestId("diff-summary")).toContainText("2 files changed, +2 −0");
  await expect(page.locator("#panel-changes").getByText("loose.txt").first()).toBeVisible();
  await picker.selectOption("1");
  await expect(page.getByTestId("diff-summary")).toContainText("1 file changed, +1 −0");
  // Keyboard: the picker is a native select, focused and moved with the arrow keys.
  await picker.focus();
  await page.keyboard.press("ArrowDown");
  await expect(picker).toHaveValue("2");

  // The confirmation lists what changes; Cancel changes nothing.
  await page.getByRole("button", { name: "Revert turn 2…" }).click();
  const dialog = page.getByRole("dialog", { name: "Revert turn 2" });
  const files = dialog.getByRole("list", { name: "Files that change" });
  await expect(files.getByRole("listitem")).toHaveText(["restored a.txt", "removed loose.txt"]);
  await expect(dialog).toContainText("how they were after turn 1");
  await expect(dialog).toContainText("the agent’s commits are not touched");
  await shootBothThemes(page, "revert-turn-dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  expect(existsSync(path.join(wt, "loose.txt"))).toBe(true);

  // Confirmed: the files are restored, the commit stays, the revert is turn 3.
  await page.getByRole("button", { name: "Revert turn 2…" }).click();
  await dialog.getByRole("button", { name: "Revert turn 2" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("region", { name: "Notifications" })).toContainText("Reverted turn 2");
  expect(readFileSync(path.join(wt, "a.txt"), "utf8")).toBe("one\n");
  expect(existsSync(path.join(wt, "loose.txt"))).toBe(false);
  expect(git(wt, "rev-parse", "HEAD")).toBe(head);
  await expect(picker).toHaveValue("");
  await expect(picker.getByRole("option")).toHaveText([
    "All changes",
    "Turn 1 · round 1 · 1 file",
    "Turn 2 · round 1 · 2 files",
    "Turn 3 · revert of turn 2 · 2 files",
  ]);
  await expect(page.getByTestId("diff-summary")).toContainText("1 file changed, +1 −0");

  // While the agent works, the confirmation says so and offers no revert.
  expect((await yard(["task", "follow-up", id, "sleep 4000"])).code).toBe(0);
  await picker.selectOption("3");
  await page.getByRole("button", { name: "Revert turn 3…" }).click();
  const busy = page.getByRole("dialog", { name: "Revert turn 3" });
  await expect(busy.getByRole("alert")).toContainText("The agent is busy");
  await expect(busy.getByRole("button", { name: "Revert turn 3" })).toBeDisabled();
  await page.keyboard.press("Escape");
  await expect(busy).toBeHidden();
  expect(existsSync(path.join(wt, "loose.txt"))).toBe(false);
});
