// The pure anchoring of review comments (which lines a diff shows, their quotes) and the feedback prompt.
import { describe, expect, it } from "vitest";
import { diffLines, feedbackPrompt, QUOTE_MAX_LINES, quoteFor, shownRanges } from "./anchor";

// Two files: a.txt modified (hunks at old 1-4/new 1-5 and old 20-22/new 21-24), gone.txt deleted,
// and a binary file, in the order the diff's file list gives.
const PATCH = [
  "diff --git a/a.txt b/a.txt",
  "index 1111111..2222222 100644",
  "--- a/a.txt",
  "+++ b/a.txt",
  "@@ -1,4 +1,5 @@",
  " one",
  "-two",
  "+TWO",
  "+two and a half",
  " three",
  " four",
  "@@ -20,3 +21,4 @@ context",
  " twenty",
  " twenty-one",
  "+new at 23",
  " twenty-two",
  "\\ No newline at end of file",
  "diff --git a/gone.txt b/gone.txt",
  "deleted file mode 100644",
  "index 3333333..0000000",
  "--- a/gone.txt",
  "+++ /dev/null",
  "@@ -1,2 +0,0 @@",
  "-bye",
  "-diff --git looks like a header but is content",
  "diff --git a/img.bin b/img.bin",
  "index 4444444..5555555 100644",
  "Binary files a/img.bin and b/img.bin differ",
  "",
].join("\n");
const FILES = [
  { path: "a.txt", status: "modified", binary: false },
  { path: "gone.txt", status: "deleted", binary: false },
  { path: "img.bin", status: "modified", binary: true },
];

describe("diffLines", () => {
  const files = diffLines(PATCH, FILES);

  it("numbers each side's lines from the hunk headers", () => {
    const a = files.get("a.txt")!;
    expect([...a.new.entries()].slice(0, 5)).toEqual([
      [1, "one"],
      [2, "TWO"],
      [3, "two and a half"],
      [4, "three"],
      [5, "four"],
    ]);
    expect(a.old.get(2)).toBe("two");
    expect(a.new.get(23)).toBe("new at 23");
    expect(a.new.get(24)).toBe("twenty-two");
    expect(shownRanges(a.new)).toBe("1-5, 21-24");
    expect(shownRanges(a.old)).toBe("1-4, 20-22");
  });

  it("takes paths from the file list, so content that looks like a header stays content", () => {
    expect(files.get("gone.txt")!.old.get(2)).toBe("diff --git looks like a header but is content");
    expect(files.get("gone.txt")!.new.size).toBe(0);
    expect(files.get("img.bin")!.binary).toBe(true);
  });
});

describe("quoteFor", () => {
  const files = diffLines(PATCH, FILES);
  const a = files.get("a.txt")!;

  it("quotes one line or a range on either side", () => {
    expect(quoteFor(a, "new", 2, 3)).toBe("TWO\ntwo and a half");
    expect(quoteFor(a, "new", 23, 23)).toBe("new at 23");
    expect(quoteFor(a, "old", 1, 2)).toBe("one\ntwo");
  });

  it("refuses lines the diff does not show, naming the file, the first missing line and what is shown", () => {
    expect(() => quoteFor(a, "new", 5, 7)).toThrow(
      expect.objectContaining({
        code: "BAD_PARAMS",
        message: expect.stringMatching(/^a\.txt: lines 5-7 .*line 6 is not.*1-5, 21-24/),
        details: expect.objectContaining({ firstMissing: 6 }),
      }),
    );
    expect(() => quoteFor(a, "new", 99, 99)).toThrow(
      expect.objectContaining({ code: "BAD_PARAMS", message: expect.stringContaining("line 99") }),
    );
  });

  it("refuses a side a file does not have, and binary files", () => {
    expect(() => quoteFor(files.get("gone.txt")!, "new", 1, 1)).toThrow(
      expect.objectContaining({ code: "BAD_PARAMS", message: expect.stringContaining("the file was deleted") }),
    );
    expect(quoteFor(files.get("gone.txt")!, "old", 1, 1)).toBe("bye");
    expect(() => quoteFor(files.get("img.bin")!, "new", 1, 1)).toThrow(
      expect.objectContaining({ code: "BAD_PARAMS", message: expect.stringContaining("binary") }),
    );
  });

  it("keeps a long range's first lines and says how many more there were", () => {
    const n = QUOTE_MAX_LINES + 5;
    const patch = [
      "diff --git a/big b/big",
      "--- /dev/null",
      "+++ b/big",
      `@@ -0,0 +1,${n} @@`,
      ...Array.from({ length: n }, (_, i) => `+l${i + 1}`),
    ].join("\n");
    const q = quoteFor(diffLines(patch, [{ path: "big", status: "added", binary: false }]).get("big")!, "new", 1, n);
    expect(q.split("\n")).toHaveLength(QUOTE_MAX_LINES + 1);
    expect(q.split("\n").at(-1)).toBe("… (5 more lines)");
  });
});

describe("feedbackPrompt", () => {
  it("is the summary, then each comment as path:lines, its body and the quoted code", () => {
    const p = feedbackPrompt(1, "Please tidy up.", [
      { path: "a.txt", startLine: 2, endLine: 3, side: "new", body: "Rename this.", quote: "TWO\ntwo and a half" },
      {
        path: "b.txt",
        startLine: 7,
        endLine: 7,
        side: "old",
        body: "Why was this removed?",
        quote: "const x = `a` + ```b```;",
      },
    ]);
    expect(p).toBe(
      [
        "Review of round 1: changes requested.",
        "",
        "Please tidy up.",
        "",
        "2 comments on the diff:",
        "",
        "a.txt:2-3",
        "Rename this.",
        "```",
        "TWO",
        "two and a half",
        "```",
        "",
        "b.txt:7 (the base version's lines)",
        "Why was this removed?",
        "````",
        "const x = `a` + ```b```;",
        "````",
        "",
        "Make these changes in this worktree, commit them, and report again with yard task report.",
      ].join("\n"),
    );
  });

  it("works with a summary alone", () => {
    expect(feedbackPrompt(3, "  Add tests.  ", [])).toBe(
      "Review of round 3: changes requested.\n\nAdd tests.\n\nMake these changes in this worktree, commit them, and report again with yard task report.",
    );
  });
});
