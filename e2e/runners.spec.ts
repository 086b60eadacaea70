// The Runners page against a real OpenSSH server (tests/helpers/sshd.ts): an admin adds a runner,
// its first check meets an unknown host key and opens "Trust the host key" showing what the host
// presents, a wrong fingerprint is refused, the right one trusted, and the next check logs in and
// finds node. Then a task started from "New task" with "Runs on" set to the runner runs its agent
// there: its card says where it runs, and so does its page. Screenshots in both themes.
import { expect, shootPart, test } from "./fixtures";
import { SSHD_AVAILABLE, startSshd } from "../tests/helpers/sshd";

test.skip(!SSHD_AVAILABLE, "needs sshd (apt-get install openssh-server) and root");

test("an admin adds a runner, checks the host key it presents, trusts it and the check passes; a task runs there", async ({
  page,
  makeRepo,
  yard,
}) => {
  test.setTimeout(180_000);
  const sshd = await startSshd();
  try {
    await page.goto("/runners");
    await expect(page.getByRole("heading", { name: "Runners", level: 1 })).toBeVisible();
    const form = page.getByRole("form", { name: "Add runner" });
    await form.getByLabel("Name").fill("build-1");
    await form.getByLabel("SSH").fill(`${sshd.user}@127.0.0.1:${sshd.port}`);
    await form.getByLabel("Key file (optional)").fill(sshd.identity);
    await form.getByRole("button", { name: "Add runner" }).click();
    const row = page.getByRole("table", { name: "Runners" }).getByRole("row", { name: /build-1/ });
    await expect(row).toContainText("not trusted");

    await row.getByRole("button", { name: "Check build-1" }).click();
    const dialog = page.getByRole("dialog", { name: "Trust the host key of build-1" });
    await expect(dialog).toContainText(sshd.fingerprint);
    await expect(page.getByRole("alert").filter({ hasText: "nobody trusted yet" })).toBeVisible();
    await shootPart(page, dialog, "runners-trust");

    await dialog.getByLabel("Fingerprint you checked").fill(`SHA256:${"B".repeat(43)}`);
    await dialog.getByRole("button", { name: "Trust", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "nothing was trusted" })).toBeVisible();
    await expect(row).toContainText("not trusted");

    await dialog.getByLabel("Fingerprint you checked").fill(sshd.fingerprint);
    await dialog.getByRole("button", { name: "Trust", exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toContainText(sshd.fingerprint);

    await row.getByRole("button", { name: "Check build-1" }).click();
    await expect(page.getByRole("status").filter({ hasText: `node ${process.version}` })).toBeVisible();
    await expect(row).toContainText(`ok, node ${process.version}`);
    await shootPart(page, page.getByRole("main"), "runners-page");

    // A task on the runner, from the New task dialog: its agent runs there and reports back.
    const repo = makeRepo("yard-e2e-runner-");
    const projectId = (await yard(["--json", "project", "add", repo, "--name", "runner-demo"])).json.project
      .id as string;
    await page.goto(`/?project=${projectId}`);
    await page.getByRole("button", { name: "New task" }).first().click();
    const newTask = page.getByRole("dialog", { name: "New task" });
    await newTask.getByLabel("Title").fill("Built elsewhere");
    await newTask.getByLabel("Objective").fill("write there.txt from the runner\nreport completed Ran on build-1");
    await newTask.getByLabel("Runs on").selectOption("build-1");
    await shootPart(page, newTask.getByLabel("Runs on").locator(".."), "new-task-runs-on");
    await newTask.getByRole("button", { name: "Start task" }).click();
    await expect(page.getByTestId("task-runner")).toHaveText("on runner build-1", { timeout: 60_000 });
    await expect(page.getByTestId("task-state-words")).toHaveText(/completed/i, { timeout: 60_000 });
    await page.goto(`/?project=${projectId}`);
    const card = page.locator("li", { hasText: "Built elsewhere" });
    await expect(card.getByTestId("card-runner")).toHaveText("on build-1");
    // The file the agent wrote there came back: the card counts it (not "0 files").
    await expect(card.getByTestId("card-diff")).toContainText("1 file changed");
    await shootPart(page, card, "card-on-runner");
  } finally {
    await sshd.stop();
  }
});
