// Table tests of the screen reader against screens captured from the real CLIs (fixtures/screens/).
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { dialogText, readScreen } from "./startup-dialogs";
import type { AgentKind } from "./kinds";

const DIR = new URL("./fixtures/screens/", import.meta.url);
const screen = (f: string) => readFileSync(new URL(f, DIR), "utf8");

type Row = [
  file: string,
  agent: AgentKind,
  dialog: string | null,
  ready: boolean,
  errors: number,
  retrying: RegExp | null,
];
const ROWS: Row[] = [
  ["claude-trust.txt", "claude", "trust", false, 0, null],
  ["claude-api-key.txt", "claude", "api_key", false, 0, null],
  ["claude-theme.txt", "claude", "theme", false, 0, null],
  ["claude-security-notes.txt", "claude", "onboarding", false, 0, null],
  ["claude-bypass-permissions.txt", "claude", "bypass_permissions", false, 0, null],
  ["claude-ready.txt", "claude", null, true, 0, null],
  ["claude-permission-prompt.txt", "claude", null, false, 0, null],
  ["claude-api-error-400.txt", "claude", null, true, 1, null],
  ["claude-retrying.txt", "claude", null, false, 0, /^401 invalid x-api-key · retrying in 18s · attempt 6\/10$/],
  ["claude-unable-to-connect.txt", "claude", null, false, 0, null],
  ["codex-splash.txt", "codex", null, false, 0, null],
  ["codex-trust.txt", "codex", "trust", false, 0, null],
  ["codex-hooks-review.txt", "codex", "hooks_review", false, 0, null],
  ["codex-login.txt", "codex", "login", false, 0, null],
  ["codex-ready.txt", "codex", null, true, 0, null],
  ["codex-approval.txt", "codex", null, false, 0, null],
  ["codex-api-error-400.txt", "codex", null, true, 1, null],
  ["codex-retrying.txt", "codex", null, true, 0, /^Reconnecting\.\.\. 1\/5 \(3s • esc to interrupt\)$/],
  ["codex-recovered.txt", "codex", null, true, 0, null],
];

describe("readScreen on captured screens", () => {
  it("has a row for every fixture", () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith(".txt"))
      .sort();
    expect(ROWS.map((r) => r[0]).sort()).toEqual(files);
  });

  it.each(ROWS)("%s (%s): dialog %s, ready %s", (file, agent, dialog, ready, errors, retrying) => {
    const r = readScreen(agent, screen(file));
    expect(r.dialog?.kind ?? null).toBe(dialog);
    expect(r.ready).toBe(ready);
    expect(r.errors).toHaveLength(errors);
    if (retrying) expect(r.retrying).toMatch(retrying);
    else expect(r.retrying).toBeNull();
  });

  it("a dialog carries its text without the decoration, a title and how to answer", () => {
    const d = readScreen("claude", screen("claude-trust.txt")).dialog!;
    expect(d.text.split("\n")).toEqual([
      "Accessing workspace:",
      "/tmp/yard-repo-XXXX",
      "Quick safety check: Is this a project you created or one you trust? (Like your own code, a well-known open source",
      "project, or work from your team). If not, take a moment to review what's in this folder first.",
      "Claude Code'll be able to read, edit, and execute files here.",
      "Security guide",
      "❯ No, exit",
      "Yes, I trust this folder",
      "Enter to confirm · Esc to cancel",
    ]);
    expect(d.title).toMatch(/trust this folder/);
    expect(d.answer).toMatch(/Yes, I trust this folder/);
  });

  it("failed-turn lines are the error itself", () => {
    expect(readScreen("codex", screen("codex-api-error-400.txt")).errors).toEqual([
      '■ {"error":{"type":"invalid_request_error","code":null,"message":"bad things happened"}}',
    ]);
    expect(readScreen("claude", screen("claude-api-error-400.txt")).errors).toEqual(["API Error: 400 bad things"]);
  });

  it("an interrupted Codex turn is not a failure", () => {
    expect(
      readScreen("codex", "› hi\n■ Conversation interrupted - tell the model what to do differently.\n").errors,
    ).toEqual([]);
  });

  // Claude's retry status in its other forms (the captured screen's line, reworded as the pinned
  // CLI renders them): a countdown over a minute, a rate limit's reset time, and the countdown
  // over while the retried request is under way.
  it.each([
    ["API error · retrying in 1s · attempt 1/10"],
    ["API error · retrying… · attempt 2/10"],
    ["529 Overloaded · retrying in 1m 5s · attempt 7/10"],
    ["Usage limit reached · retrying in 7m (resets 3pm) · attempt 8/10"],
  ])("Claude retrying: %s", (line) => {
    const s = screen("claude-retrying.txt").replace("401 invalid x-api-key · retrying in 18s · attempt 6/10", line);
    expect(readScreen("claude", s).retrying).toBe(line);
  });

  it("a conversation line about retrying is not a retry", () => {
    expect(readScreen("claude", "⏺ I will keep retrying in a loop until the tests pass.\n❯ \n").retrying).toBeNull();
  });

  it("each agent's rules stay with that agent", () => {
    expect(readScreen("codex", screen("claude-trust.txt")).dialog).toBeNull();
    expect(readScreen("claude", screen("codex-trust.txt")).dialog).toBeNull();
  });

  it("dialogText drops art and box rules, keeps words", () => {
    expect(dialogText("────────\n ⣿⣿⣿ \n  Hello there  \n\n░░▓▓\n  › 1. Yes\n")).toBe("Hello there\n› 1. Yes");
  });
});
