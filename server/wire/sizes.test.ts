import { describe, expect, it } from "vitest";
import { formatSize, parseAge, parseSize } from "./sizes";

describe("sizes and ages as people write them", () => {
  it.each([
    ["20GB", 20 * 1024 ** 3],
    ["20 gb", 20 * 1024 ** 3],
    ["1.5G", 1.5 * 1024 ** 3],
    ["512MB", 512 * 1024 ** 2],
    ["4KiB", 4096],
    ["1000", 1000],
    ["1B", 1],
    ["2TB", 2 * 1024 ** 4],
  ])("parseSize(%j) = %d", (text, bytes) => expect(parseSize(text)).toBe(bytes));

  it.each(["", "GB", "-1GB", "0", "20XB", "1e9", "20 G B", "2048TB"])("parseSize(%j) is not a size", (text) =>
    expect(parseSize(text)).toBeNull(),
  );

  it.each([
    [0, "0 B"],
    [812, "812 B"],
    [4096, "4.0 KB"],
    [1.5 * 1024 ** 3, "1.5 GB"],
    [300 * 1024 ** 2, "300 MB"],
  ])("formatSize(%d) = %j", (bytes, text) => expect(formatSize(bytes)).toBe(text));

  it.each([
    ["30m", 30 * 60_000],
    ["12h", 12 * 3_600_000],
    ["7d", 7 * 86_400_000],
    ["2w", 14 * 86_400_000],
  ])("parseAge(%j) = %d ms", (text, ms) => expect(parseAge(text)).toBe(ms));

  it.each(["7", "d", "0d", "1y", "-1d", "9999w"])("parseAge(%j) is not an age", (text) =>
    expect(parseAge(text)).toBeNull(),
  );
});
