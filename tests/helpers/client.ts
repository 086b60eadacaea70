// A tRPC client for tests, with the install token or a pane token, and error capture.
import { makeClient } from "../../cli/connection";
import { toCliError } from "../../cli/output";
import type { TestServer } from "./server";

export function adminClient(server: Pick<TestServer, "url" | "token" | "home">) {
  return makeClient({ url: server.url, token: server.token, source: "env", home: server.home });
}

export function clientWithToken(server: Pick<TestServer, "url" | "home">, token: string) {
  return makeClient({ url: server.url, token, source: "env", home: server.home });
}

/** Runs fn and returns the error it threw as {code, message, details}, or fails if it did not throw. */
export async function errorOf(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (e) {
    return toCliError(e);
  }
  throw new Error("expected an error, got success");
}
