import { describe, expect, it } from "vitest";
import { KeyedMutex } from "./lock";

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("KeyedMutex", () => {
  it("runs critical sections for one key one at a time, in call order", async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    const job = (name: string, ms: number) =>
      m.run("repo", async () => {
        log.push(`${name}:start`);
        await tick(ms);
        log.push(`${name}:end`);
        return name;
      });
    const results = await Promise.all([job("a", 30), job("b", 5), job("c", 1)]);
    expect(results).toEqual(["a", "b", "c"]);
    expect(log).toEqual(["a:start", "a:end", "b:start", "b:end", "c:start", "c:end"]);
    expect(m.isLocked("repo")).toBe(false);
  });

  it("releases the lock when a section throws", async () => {
    const m = new KeyedMutex();
    const first = m.run("k", async () => {
      throw new Error("boom");
    });
    const second = m.run("k", async () => "ok");
    await expect(first).rejects.toThrow("boom");
    await expect(second).resolves.toBe("ok");
    expect(m.isLocked("k")).toBe(false);
  });

  it("does not serialize different keys", async () => {
    const m = new KeyedMutex();
    const log: string[] = [];
    await Promise.all([
      m.run("a", async () => {
        log.push("a:start");
        await tick(30);
        log.push("a:end");
      }),
      m.run("b", async () => {
        log.push("b:start");
        await tick(1);
        log.push("b:end");
      }),
    ]);
    expect(log.indexOf("b:end")).toBeLessThan(log.indexOf("a:end"));
  });
});
