// PtyFlow: pause holds from several reasons compose into one pause/resume of the PTY.
import { describe, expect, it } from "vitest";
import { PtyFlow } from "./pty-flow";

function recorder() {
  const calls: string[] = [];
  return { calls, target: { pause: () => void calls.push("pause"), resume: () => void calls.push("resume") } };
}

describe("PtyFlow", () => {
  it("pauses on the first hold and resumes only when the last one is released", () => {
    const { calls, target } = recorder();
    const flow = new PtyFlow(target);
    const backpressure = flow.hold();
    const attach = flow.hold();
    expect(calls).toEqual(["pause"]);
    backpressure();
    expect(flow.paused).toBe(true);
    expect(calls).toEqual(["pause"]);
    attach();
    expect(flow.paused).toBe(false);
    expect(calls).toEqual(["pause", "resume"]);
    expect(flow.pauses).toBe(1);
  });

  it("ignores a second release of the same hold", () => {
    const { calls, target } = recorder();
    const flow = new PtyFlow(target);
    const a = flow.hold();
    const b = flow.hold();
    a();
    a();
    expect(flow.paused).toBe(true);
    expect(calls).toEqual(["pause"]);
    b();
    expect(calls).toEqual(["pause", "resume"]);
    const c = flow.hold();
    expect(calls).toEqual(["pause", "resume", "pause"]);
    c();
    expect(flow.pauses).toBe(2);
  });
});
