import { describe, expect, it } from "vitest";
import { type Column, type ColumnInput, columnFor } from "./columns";

const table: Array<[ColumnInput, Column]> = [
  [{ state: "backlog", disposition: null }, "backlog"],
  [{ state: "pending", disposition: null }, "in_progress"],
  [{ state: "working", disposition: null }, "in_progress"],
  [{ state: "working", disposition: null, paneBlocked: true }, "needs_you"],
  [{ state: "input_required", disposition: null }, "needs_you"],
  [{ state: "failed", disposition: null }, "needs_you"],
  [{ state: "failed", disposition: "discarded" }, "done"],
  [{ state: "completed", disposition: null }, "review"],
  [{ state: "completed", disposition: "merged" }, "done"],
  [{ state: "completed", disposition: "discarded" }, "done"],
  [{ state: "canceled", disposition: null }, "done"],
  [{ state: "rejected", disposition: null }, "done"],
  [{ state: "mystery", disposition: null }, "needs_you"],
];

describe("columnFor", () => {
  it.each(table)("%j → %s", (input, column) => {
    expect(columnFor(input)).toBe(column);
  });
});
