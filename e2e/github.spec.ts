// The hand-off to GitHub in a real browser: on a completed task's page, "Push branch" pushes it to
// the project's remote (a bare repository in a temp dir, reached through the person's own
// `url.*.insteadOf`), "Open pull request" without a token says so and takes the project's token
// (write-only), then opens a draft pull request on the GitHub API stub; its link, state and checks
// show as the poll reads them; merged on GitHub, the task shows as finished through it. Both
// themes are screenshotted; the push is done from the keyboard.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { git } from "../tests/helpers/git";
import { type GithubStub, startGithubStub } from "../tests/stubs/github-api";
import { test as base, expect, startDemoTask } from "./fixtures";

const TOKEN = "ghp_e2e_stub_token_42";
const REMOTE_URL = "https://github.com/acme/widgets.git";
const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

/** The GitHub stub and the bare repository behind acme/widgets; the test's own server points at the stub. */
const test = base.extend<{ gh: { stub: GithubStub; bare: string } }>({
  gh: async ({}, use) => {
    const parent = mkdtempSync(path.join(os.tmpdir(), "yard-e2e-gh-"));
    const bare = path.join(parent, "widgets.git");
    git(parent, "init", "-q", "--bare", bare);
    const stub = await startGithubStub({ token: TOKEN, repos: { "acme/widgets": bare } });
    await use({ stub, bare });
    await stub.close();
    rmSync(parent, { recursive: true, force: true });
  },
  serverEnv: async ({ gh }, use) => {
    await use({ GITHUB_API_URL: gh.stub.apiUrl, GITHUB_TOKEN: "", YARD_GITHUB_POLL_MS: "300" });
  },
});
test.use({ freshServer: true });

test("push a branch, open a pull request, see its checks, merged on GitHub", async ({
  page,
  makeRepo,
  yard,
  gh: { stub: gh, bare },
}) => {
  test.setTimeout(180_000);
  const repo = makeRepo("yard-e2e-gh-repo-");
  git(repo, "remote", "add", "origin", REMOTE_URL);
  git(repo, "config", `url.${bare}.insteadOf`, REMOTE_URL);
  git(repo, "-c", "protocol.file.allow=always", "push", "-q", "-u", "origin", "main");
  const projectId = (await yard(["--json", "project", "add", repo])).json.project.id as string;
  const started = await startDemoTask(yard, {
    project: projectId,
    title: "Widget greeting",
    objective: "write greet.txt hello\ncommit add greet\nreport completed wrote greet.txt",
  });
  const id: string = started.json.task.id;
  const branch: string = started.json.task.branch;
  expect((await yard(["--json", "task", "wait", id, "--until", "completed", "--timeout-ms", "90000"])).code).toBe(0);

  await page.goto(`/tasks/${id}`);
  const section = page.getByRole("region", { name: "GitHub" });
  await expect(section).toBeVisible();
  await expect(section.getByText("with your own git credentials")).toBeVisible();

  // Push from the keyboard.
  await section.getByRole("button", { name: "Push branch" }).focus();
  await page.keyboard.press("Enter");
  await expect(section.getByText(`Pushed to origin/${branch}`)).toBeVisible();
  expect(git(bare, "rev-parse", `refs/heads/${branch}`)).toBe(git(repo, "rev-parse", `refs/heads/${branch}`));

  // No token yet: the refusal says how to set one, and takes the project's.
  await section.getByRole("button", { name: "Open pull request" }).click();
  const alert = section.getByRole("alert");
  await expect(alert).toContainText("No GitHub token");
  await expect(alert).toContainText(`yard project github-token ${projectId}`);
  expect(gh.requests).toEqual([]);
  await alert.getByLabel("Project GitHub token").fill(TOKEN);
  await alert.getByRole("button", { name: "Save token" }).click();
  await expect(alert).toBeHidden();
  expect((await yard(["--json", "project", "github", projectId])).json.tokenSource).toBe("project");

  await section.getByLabel("Draft").check();
  await section.getByRole("button", { name: "Open pull request" }).click();
  const link = section.getByRole("link", { name: "Pull request #1" });
  await expect(link).toHaveAttribute("href", "https://github.com/acme/widgets/pull/1");
  await expect(section.getByTestId("pull-request")).toContainText("Open (draft)");
  await expect(section.getByRole("button", { name: "Open pull request" })).toHaveCount(0);
  const create = gh.requests.find((r) => r.method === "POST")!;
  expect(create.body).toMatchObject({ head: branch, base: "main", draft: true, title: "Widget greeting" });
  expect(String(create.body!.body)).toContain("write greet.txt hello");

  // The poll brings the checks in.
  const head = git(bare, "rev-parse", `refs/heads/${branch}`);
  gh.setChecks(head, {
    runs: [
      { name: "build", status: "completed", conclusion: "success", html_url: "https://ci.example/build" },
      { name: "test", status: "completed", conclusion: "failure", html_url: "https://ci.example/test" },
    ],
  });
  const checks = section.getByRole("list", { name: "Checks" });
  await expect(checks.getByRole("listitem")).toHaveCount(2);
  await expect(checks.getByRole("listitem").first()).toContainText("test: failure");
  await expect(checks.getByRole("link", { name: "test" })).toHaveAttribute("href", "https://ci.example/test");
  await expect(section).toContainText("1/2 passed, 1 failed");

  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(400); // colour transitions settle
    await section.screenshot({ path: path.join(SCREENSHOTS, `github-section-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: "light" });

  // Merged on GitHub: the task finishes through it.
  const mergeCommit = gh.merge(1);
  const finished = page.getByTestId("finished-summary");
  await expect(finished).toContainText("Merged into main", { timeout: 20_000 });
  await expect(finished).toContainText("its pull request was merged on GitHub");
  await expect(finished.getByRole("link", { name: "Pull request #1" })).toHaveAttribute(
    "href",
    "https://github.com/acme/widgets/pull/1",
  );
  await expect(finished).toContainText(mergeCommit.slice(0, 7));
  await expect(section.getByTestId("pull-request")).toContainText("Merged");
  await expect(section.getByRole("button", { name: "Push branch" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId("finished-summary").getByRole("link", { name: "Pull request #1" })).toBeVisible();
});
