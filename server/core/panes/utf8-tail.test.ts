import { describe, expect, it } from "vitest";
import { incompleteUtf8Tail } from "./utf8-tail";

const b = (...xs: number[]) => Uint8Array.from(xs);

describe("incompleteUtf8Tail", () => {
  it.each([
    ["ascii", b(0x61, 0x62), null],
    ["complete 2-byte é", b(0x61, 0xc3, 0xa9), null],
    ["cut 2-byte", b(0x61, 0xc3), [0xc3]],
    ["cut 3-byte after 1", b(0xe2), [0xe2]],
    ["cut 3-byte after 2", b(0x61, 0xe2, 0x94), [0xe2, 0x94]],
    ["complete 3-byte ─", b(0xe2, 0x94, 0x80), null],
    ["cut 4-byte after 3", b(0xf0, 0x9f, 0x98), [0xf0, 0x9f, 0x98]],
    ["complete 4-byte", b(0xf0, 0x9f, 0x98, 0x80), null],
    ["empty", b(), null],
  ])("%s", (_name, input, expected) => {
    const tail = incompleteUtf8Tail(input);
    expect(tail ? [...tail] : null).toEqual(expected);
  });
});
