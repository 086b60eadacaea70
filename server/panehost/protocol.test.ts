// The pane host's wire format and the hook relay's request lines, without processes.
import { describe, expect, it } from "vitest";
import { YardError } from "../core/errors";
import { parseRelayLine } from "./hook-relay";
import os from "node:os";
import { MAX_SOCKET_PATH } from "../config";
import { encodeFrame, FrameReader, fromWireError, hostPaths, MAX_FRAME, secretMatches, toWireError } from "./protocol";

describe("frames", () => {
  it("round-trip headers and bodies (strings, bytes, a reply's result field)", () => {
    const bytes = Buffer.from([0, 255, 0x1b, 0xe2, 0x82]);
    const frames = [
      encodeFrame({ ev: "output", paneId: "paneabcd", offset: 7 }, { field: "data", data: bytes }),
      encodeFrame({ re: 3, ok: true, result: { cursor: 9 } }, { field: "result.text", data: "héllo\x1b[1m\n" }),
      encodeFrame({ id: 1, op: "list" }),
    ];
    const msgs = new FrameReader().push(Buffer.concat(frames));
    expect(msgs).toEqual([
      { ev: "output", paneId: "paneabcd", offset: 7, data: bytes },
      { re: 3, ok: true, result: { cursor: 9, text: "héllo\x1b[1m\n" } },
      { id: 1, op: "list" },
    ]);
  });

  it("reassembles frames split anywhere, one byte at a time", () => {
    const wire = Buffer.concat([encodeFrame({ a: 1 }, { field: "s", data: "x".repeat(5000) }), encodeFrame({ b: 2 })]);
    const r = new FrameReader();
    const out = [];
    for (let i = 0; i < wire.length; i++) out.push(...r.push(wire.subarray(i, i + 1)));
    expect(out).toEqual([{ a: 1, s: "x".repeat(5000) }, { b: 2 }]);
  });

  it("refuses a frame over the limit before buffering it, and writes none that large", () => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(MAX_FRAME + 1, 0);
    expect(() => new FrameReader().push(head)).toThrow(/frame length/);
    expect(() => encodeFrame({ x: 1 }, { field: "d", data: Buffer.alloc(MAX_FRAME) })).toThrow(YardError);
  });

  it("carries typed errors", () => {
    const e = fromWireError(toWireError(new YardError("PANE_EXITED", "gone", { paneId: "p" })));
    expect(e).toBeInstanceOf(YardError);
    expect(e.toJSON()).toEqual({ code: "PANE_EXITED", message: "gone", details: { paneId: "p" } });
    expect(fromWireError({ code: "NOPE", message: 5 }).code).toBe("INTERNAL");
  });

  it("compares secrets in constant time, refusing anything but the exact string", () => {
    expect(secretMatches("s3cret-s3cret-s3cret-s3cret-s3cret", "s3cret-s3cret-s3cret-s3cret-s3cret")).toBe(true);
    expect(secretMatches("s3cret", "s3cret-s3cret-s3cret-s3cret-s3cret")).toBe(false);
    expect(secretMatches(undefined, "x")).toBe(false);
  });
});

describe("host paths", () => {
  it("keep the control socket in the data dir, or in a private temp dir of its own when that path is too long", () => {
    expect(hostPaths("/home/u/.local/share/switchyard")).toMatchObject({
      socket: "/home/u/.local/share/switchyard/host/host.sock",
      relay: "/home/u/.local/share/switchyard/run/hook.sock",
    });
    const long = `/var/tmp/${"d".repeat(100)}`;
    const a = hostPaths(long);
    expect(a.socket.startsWith(os.tmpdir())).toBe(true);
    expect(Buffer.byteLength(a.socket)).toBeLessThanOrEqual(MAX_SOCKET_PATH);
    expect(a.relay).toBeNull(); // no relay there: its path cannot be a socket address
    expect(hostPaths(long).socket).toBe(a.socket);
    expect(hostPaths(`${long}x`).socket).not.toBe(a.socket);
  });
});

describe("hook relay lines", () => {
  const ok = {
    paneId: "paneabcd1234",
    token: `yp_paneabcd1234_${"a".repeat(32)}`,
    event: "Stop",
    payload: { hook_event_name: "Stop" },
  };
  it("accept a pane's hook", () => {
    expect(parseRelayLine(JSON.stringify(ok))).toEqual(ok);
  });
  it.each([
    ["not JSON", "{", "BAD_PARAMS"],
    ["a bad pane id", JSON.stringify({ ...ok, paneId: "../x" }), "BAD_PARAMS"],
    ["no token", JSON.stringify({ ...ok, token: undefined }), "UNAUTHORIZED"],
    ["a bad event name", JSON.stringify({ ...ok, event: "Stop now" }), "BAD_PARAMS"],
    ["a payload that is not an object", JSON.stringify({ ...ok, payload: [1] }), "BAD_PARAMS"],
  ])("refuse %s", (_what, line, code) => {
    expect(() => parseRelayLine(line)).toThrow(expect.objectContaining({ code }));
  });
});
