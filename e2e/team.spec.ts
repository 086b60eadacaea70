// A board for a team, in the browser: two reviewers added with `yard user add` sign in with their
// own invite links (a browser each); the project requires two approvals; one requests changes (the
// demo agent does them in round 2), the other approves and Merge says what it still waits for; the
// first approves too and merges. The cards and the task page name who started it, the Audit page
// who did what, Insights the day's numbers, and a used invite link signs nobody in.
import type { Browser, Page } from "@playwright/test";
import { git } from "../tests/helpers/git";
import { expect, shootPart, startDemoTask, test } from "./fixtures";

const stateBadge = (page: Page) => page.locator("main header [data-testid=state-badge]").first();

async function signIn(browser: Browser, baseURL: string, invite: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const res = await page.goto(invite);
  expect(res?.ok(), `the invite link answered ${res?.status()}`).toBe(true);
  await expect(page).toHaveURL(new RegExp(`^${baseURL.replace(/[.]/g, "\\.")}/(\\?project=[a-z0-9]+)?$`));
  return page;
}

test("two invited reviewers: one requests changes, the other approves, and the merge needs both", async ({
  browser,
  server,
  yard,
  makeRepo,
}) => {
  test.setTimeout(180_000);
  const repo = makeRepo("yard-e2e-team-");
  const projectId = (await yard(["--json", "project", "add", repo, "--name", "team-demo"])).json.project.id as string;
  expect((await yard(["--json", "project", "set", projectId, "--required-approvals", "2"])).code).toBe(0);
  const invite = async (name: string) => {
    const r = await yard(["--json", "user", "add", name, "--role", "reviewer"]);
    expect(r.code, r.stderr).toBe(0);
    return r.json.invite.url as string;
  };
  const rexInvite = await invite("rex");
  const adaInvite = await invite("ada");
  const started = await startDemoTask(yard, {
    project: projectId,
    title: "Team notes",
    objective: "write notes.txt hello\ncommit add notes\nreport completed wrote notes.txt",
  });
  const id = started.json.task.id as string;

  // ---- rex signs in with his invite and asks for a change -----------------------------------
  const rex = await signIn(browser, server.url, rexInvite);
  await expect(rex.getByTestId("signed-in-as")).toHaveText("rex · reviewer");
  await expect(rex.getByRole("link", { name: "People" })).toHaveCount(0); // an admin's page
  const card = rex.locator(`li[data-task-id="${id}"]`);
  await expect(card).toContainText("started by owner");
  await rex.goto(`/tasks/${id}`);
  await expect(rex.getByTestId("task-started-by")).toHaveText("started by owner");
  await expect(stateBadge(rex)).toHaveText("completed", { timeout: 60_000 });
  await rex.getByRole("tab", { name: "Review" }).click();
  await rex
    .getByRole("textbox", { name: "Summary" })
    .fill("append notes.txt second line; commit second line; report completed added the line");
  await rex.getByRole("button", { name: "Request changes" }).click();
  await expect(rex.getByTestId("task-round")).toHaveText("round 2", { timeout: 30_000 });
  await expect(stateBadge(rex)).toHaveText("completed", { timeout: 90_000 });

  // ---- ada signs in with hers and approves: Merge says it waits for one more ------------------
  const ada = await signIn(browser, server.url, adaInvite);
  await expect(ada.getByTestId("signed-in-as")).toHaveText("ada · reviewer");
  await ada.goto(`/tasks/${id}?tab=review`);
  await expect(ada.getByTestId("task-round")).toHaveText("round 2");
  await expect(ada.getByRole("main")).toContainText("rex"); // round 1's verdict names its reviewer
  await ada.getByRole("button", { name: "Approve" }).click();
  await expect(ada.getByRole("status").filter({ hasText: "Approved, waiting for more approvals" })).toContainText(
    "approved by ada so far",
  );
  await expect(ada.getByRole("button", { name: "Approve" })).toBeDisabled(); // hers is in
  const merge = ada.getByRole("button", { name: "Merge", exact: true });
  await expect(merge).toBeDisabled();
  await expect(merge).toHaveAccessibleDescription(
    /needs 2 approvals of the task's current tip \(approved by ada so far\): 1 more from reviewers or admins/,
  );
  const before = git(repo, "rev-parse", "main");

  // ---- rex approves too; now he merges ------------------------------------------------------
  await rex.reload();
  await rex.getByRole("tab", { name: "Review" }).click();
  await rex.getByRole("button", { name: "Approve" }).click();
  await expect(rex.getByText("Approved by ada, rex (2 required)")).toBeVisible();
  await rex.getByRole("button", { name: "Merge", exact: true }).click();
  const dialog = rex.getByRole("dialog", { name: /Merge into main/ });
  await dialog.getByRole("button", { name: "Merge", exact: true }).click();
  await expect(rex.getByRole("status").filter({ hasText: "Merged into main" })).toBeVisible({ timeout: 30_000 });
  await expect(rex.getByTestId("finished-summary")).toContainText("By You", { useInnerText: true });
  expect(git(repo, "rev-parse", "main")).not.toBe(before);
  expect(git(repo, "show", "main:notes.txt")).toContain("second line");

  // ---- the Audit page, as ada: who did what ------------------------------------------------
  await ada.goto("/audit");
  const trail = ada.getByRole("list", { name: "Audit trail" });
  const entry = (who: string, what: string) =>
    trail
      .getByRole("listitem")
      .filter({ hasText: what })
      .filter({ hasText: new RegExp(`^${who}`) });
  await expect(entry("rex", `requested changes on task ${id}`)).toHaveCount(1);
  await expect(entry("ada", `approved task ${id}`)).toHaveCount(1);
  await expect(entry("rex", `approved task ${id}`)).toHaveCount(1);
  await expect(entry("rex", `merged task ${id}`)).toHaveCount(1);
  // The states the round moved through are not anyone's action; the started task's line reads once.
  await expect(trail.getByRole("listitem").filter({ hasText: "moved task" })).toHaveCount(0);
  await expect(entry("owner", `started task ${id} "Team notes"`)).toHaveCount(1);
  await shootPart(ada, ada.getByRole("main"), "audit");
  await ada.getByLabel("Person").fill("ada");
  await expect(trail.getByRole("listitem")).toHaveCount(1);

  // ---- Insights, as ada: the day's counts, charted and in the agents' table ----------------------
  await ada.goto("/insights");
  await expect(
    ada.getByRole("figure", { name: "Tasks started and merged per day" }).locator("svg").first(),
  ).toBeVisible();
  const today = new Date().toISOString().slice(0, 10);
  await expect(
    ada.getByRole("table", { name: "Tasks started and merged per day" }).getByRole("row", { name: `${today} 1 1` }),
  ).toHaveCount(1);
  await expect(
    ada.getByRole("table", { name: /^Agent profiles/ }).getByRole("row", { name: /^demo 1 1 1 0 100%/ }),
  ).toHaveCount(1);
  await shootPart(ada, ada.getByRole("main"), "insights");
  await ada.getByLabel("Person").fill("rex");
  await expect(ada.getByRole("table", { name: /^Agent profiles/ }).getByRole("row")).toHaveCount(1); // the header only

  // ---- a used invite link signs nobody in ------------------------------------------------------
  const again = await (await browser.newContext({ baseURL: server.url })).newPage();
  const res = await again.goto(rexInvite);
  expect(res?.status()).toBe(401);
  await expect(again.getByText("That invite link is not valid")).toBeVisible();
});

test("the People page: an admin adds someone (their invite link shown once), changes a role, removes them", async ({
  page,
  browser,
  server,
  yard,
}) => {
  await page.goto("/people");
  await expect(page.getByRole("heading", { name: "People" })).toBeVisible();
  const form = page.getByRole("form", { name: "Add person" });
  await form.getByLabel("Name").fill("zoe");
  await form.getByLabel("Role").selectOption("reviewer");
  await form.getByRole("button", { name: "Add person" }).click();
  const invite = page.getByRole("status").filter({ hasText: "Invite link for zoe" });
  await expect(invite).toContainText(`${server.url}/invite?code=`);
  const url = (await invite.locator("code").textContent())!.trim();
  const people = page.getByRole("table", { name: "People" });
  await expect(people.getByRole("row", { name: /^zoe reviewer 0/ })).toHaveCount(1);
  await shootPart(page, page.getByRole("main"), "people");

  // A bad name is refused with the server's reason, and nothing is added.
  const rows = await people.getByRole("row").count();
  await form.getByLabel("Name").fill("Zoe Smith");
  await form.getByRole("button", { name: "Add person" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Refused" })).toContainText(
    "a person's name is 2-32 lowercase letters",
  );
  await expect(people.getByRole("row")).toHaveCount(rows);

  await people.getByLabel("Role of zoe").selectOption("member");
  await expect
    .poll(
      async () =>
        (await yard(["--json", "user", "list"])).json.people.find((p: { name: string }) => p.name === "zoe")?.role,
    )
    .toBe("member");

  // zoe signs in with the link, then is removed: her next call is refused.
  const zoe = await (await browser.newContext({ baseURL: server.url })).newPage();
  expect((await zoe.goto(url))?.ok()).toBe(true);
  await expect(zoe.getByTestId("signed-in-as")).toHaveText("zoe · member");
  await expect(zoe.getByRole("link", { name: "People" })).toHaveCount(0);
  await people.getByRole("button", { name: "Remove zoe" }).click();
  await page.getByRole("dialog", { name: "Remove zoe" }).getByRole("button", { name: "Remove" }).click();
  await expect(people.getByRole("row", { name: /^zoe / })).toHaveCount(0);
  await zoe.reload();
  await expect(zoe.getByText("This board needs its login token")).toBeVisible();
});
