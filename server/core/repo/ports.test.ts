import net from "node:net";
import { describe, expect, it } from "vitest";
import { listening, parsePortRange, pickPorts, portFree } from "./ports";

describe("the port range", () => {
  it("defaults to 41000-41999 and reads FIRST-LAST", () => {
    expect(parsePortRange(undefined)).toEqual({ first: 41000, last: 41999 });
    expect(parsePortRange(" 5000 - 5009 ")).toEqual({ first: 5000, last: 5009 });
  });
  it.each(["5000", "80-90", "6000-5000", "5000-70000", "a-b"])("refuses %s", (v) => {
    expect(() => parsePortRange(v)).toThrow(/YARD_PORT_RANGE/);
  });
});

describe("picking a task's ports", () => {
  const range = { first: 100, last: 109 };
  const free =
    (busy: number[] = []) =>
    async (p: number) =>
      !busy.includes(p);

  it("takes the lowest ports no task holds and nothing listens on", async () => {
    expect(await pickPorts(3, range, new Set([100, 102]), { isFree: free([103]) })).toEqual([101, 104, 105]);
  });

  it("gives a resumed task its old ports back when they are free", async () => {
    expect(await pickPorts(2, range, new Set(), { prefer: [107, 108], isFree: free() })).toEqual([107, 108]);
    expect(await pickPorts(2, range, new Set([107]), { prefer: [107, 108], isFree: free() })).toEqual([108, 100]);
  });

  it("is CONFLICT when the range has too few free", async () => {
    await expect(pickPorts(3, { first: 100, last: 102 }, new Set([101]), { isFree: free() })).rejects.toMatchObject({
      code: "CONFLICT",
      details: { wanted: 3, free: 2, range: "100-102" },
    });
  });
});

describe("the machine's ports", () => {
  it("sees a port something listens on as taken, and as listening", async () => {
    const server = net.createServer();
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      expect(await portFree(port)).toBe(false);
      expect(await listening(port)).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
    expect(await portFree(port)).toBe(true);
    expect(await listening(port)).toBe(false);
  });
});
