// The pure parts of project webhooks: which journal events are notices, the body a burst becomes,
// and the signature a receiver recomputes.
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { YardEvent } from "../../wire/events";
import { noticeKind, WEBHOOK_EVENTS, webhookBody, webhookSignature } from "./webhooks";

const ev = (type: string, payload: Record<string, unknown>) =>
  ({ seq: 1, type, taskId: "tsk1", paneId: null, time: "2026-12-03T00:00:00.000Z", payload }) as unknown as YardEvent;

describe("noticeKind", () => {
  it.each([
    [ev("task.state", { from: "working", to: "input_required" }), "needs_you"],
    [ev("task.state", { from: "working", to: "completed" }), "review"],
    [ev("task.state", { from: "working", to: "failed" }), "failed"],
    [ev("task.state", { from: "pending", to: "working" }), null],
    [ev("task.state", { from: "working", to: "canceled" }), null],
    [ev("task.finished", { disposition: "merged" }), "merged"],
    [ev("task.finished", { disposition: "discarded" }), null],
    [ev("pane.exit", { exitCode: 0 }), null],
  ])("%# -> %s", (e, kind) => expect(noticeKind(e)).toBe(kind));
  it("knows exactly the four kinds", () =>
    expect([...WEBHOOK_EVENTS]).toEqual(["needs_you", "review", "failed", "merged"]));
});

describe("webhookBody", () => {
  const project = { id: "prj1", name: "web" };
  const n = (kind: (typeof WEBHOOK_EVENTS)[number], taskId: string, title: string) => ({
    kind,
    taskId,
    title,
    at: "t",
  });
  it("one notice is one line of Slack text, linked to the task", () => {
    expect(webhookBody(project, [n("failed", "tsk1", "Build")], "http://b").text).toBe(
      "Switchyard · web: <http://b/tasks/tsk1|Build> failed",
    );
  });
  it("escapes a title's Slack control characters: it cannot end the link or add one", () => {
    const t = webhookBody(project, [n("review", "tsk1", "x> <https://evil.example|click> & |more")], "http://b").text;
    expect(t).toBe(
      "Switchyard · web: <http://b/tasks/tsk1|x&gt; &lt;https://evil.example¦click&gt; &amp; ¦more> is ready for review",
    );
  });
  it("a burst is one body with a line per notice and the notices for machines", () => {
    const b = webhookBody(project, [n("review", "tsk1", "A"), n("merged", "tsk2", "B")], "http://b");
    expect(b.text).toBe(
      "Switchyard · web: 2 updates\n• <http://b/tasks/tsk1|A> is ready for review\n• <http://b/tasks/tsk2|B> was merged",
    );
    expect(b.switchyard.events.map((e) => [e.kind, e.url])).toEqual([
      ["review", "http://b/tasks/tsk1"],
      ["merged", "http://b/tasks/tsk2"],
    ]);
  });
});

describe("webhookSignature", () => {
  it("is HMAC-SHA256 of timestamp.body, and changes with either", () => {
    const sig = webhookSignature("key", "100", "{}");
    expect(sig).toBe(`sha256=${createHmac("sha256", "key").update("100.{}").digest("hex")}`);
    expect(webhookSignature("key", "101", "{}")).not.toBe(sig);
    expect(webhookSignature("key", "100", "{ }")).not.toBe(sig);
    expect(webhookSignature("other", "100", "{}")).not.toBe(sig);
  });
});
