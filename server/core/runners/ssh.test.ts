import { describe, expect, it } from "vitest";
import { exec, OUTPUT_MARK } from "./ssh";

describe("exec", () => {
  it("survives a program that exits without reading its input (the runner out of reach: EPIPE)", async () => {
    // 4 MiB is more than a pipe holds: the write is still going when `true` exits and closes it.
    for (let i = 0; i < 5; i++) {
      const r = await exec("true", [], { timeoutMs: 10_000, input: Buffer.alloc(4 << 20, 120) });
      expect(r.code).toBe(0);
    }
    const failed = await exec("sh", ["-c", "exit 255"], { timeoutMs: 10_000, input: Buffer.alloc(4 << 20, 120) });
    expect(failed.code).toBe(255);
  });

  it("keeps only what came after our scripts' mark: a login's banner before it is not their answer", async () => {
    const script = `printf 'Welcome to the build box\\n'; printf '${OUTPUT_MARK.replace(/\0/g, "\\000").replace("\n", "\\n")}'; printf '{"ok":true}'`;
    const r = await exec("sh", ["-c", script], { timeoutMs: 10_000, binary: true });
    expect(r.stdout).toBe('{"ok":true}');
    expect(r.raw?.toString("utf8")).toBe('{"ok":true}');
    // Without a mark (not one of our scripts), all of it.
    expect((await exec("sh", ["-c", "printf 'plain'"], { timeoutMs: 10_000 })).stdout).toBe("plain");
  });
});
