// What every command gets: the output mode and a lazily-connected client.
import type { Command } from "commander";
import { type Connection, makeClient, resolveConnection, type YardClient } from "./connection";
import { Output } from "./output";

export interface CliContext {
  out(): Output;
  conn(): Connection;
  client(): YardClient;
}

export function makeContext(program: Command, argv: string[]): CliContext {
  let conn: Connection | null = null;
  let client: YardClient | null = null;
  const dashdash = argv.indexOf("--");
  const jsonFlag = (dashdash === -1 ? argv : argv.slice(0, dashdash)).includes("--json");
  return {
    out: () => new Output(Boolean(program.opts().json) || jsonFlag),
    conn: () => (conn ??= resolveConnection()),
    client: () => (client ??= makeClient((conn ??= resolveConnection()))),
  };
}

/** Parses a positive integer option; commander passes strings. */
export function intOption(name: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^-?\d+$/.test(value) || n < min || n > max)
      throw new Error(`${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
}

/** For repeatable options: --x a --x b → ["a", "b"]. */
export const collect = (value: string, previous: string[] = []) => [...previous, value];
