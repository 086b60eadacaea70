// Every procedure declares its output schema: the contract the CLI and UI types come from.
import { expect, it } from "vitest";
import { appRouter } from "./router";

it("every procedure has an .output() schema", () => {
  const defs = (appRouter as unknown as { _def: { procedures: Record<string, { _def: { output?: unknown } }> } })._def
    .procedures;
  const missing = Object.entries(defs)
    .filter(([, d]) => d._def.output === undefined)
    .map(([p]) => p);
  expect(Object.keys(defs).length).toBeGreaterThan(50);
  expect(missing).toEqual([]);
});
