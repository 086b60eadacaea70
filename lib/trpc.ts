// The browser's tRPC client (same-origin; the session cookie authenticates it) and the one way
// the UI reads an error: the server's {code, message, details} from the shared registry.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "../server/api/router";
import type { YardErrorData } from "../server/api/trpc";

export const trpc = createTRPCClient<AppRouter>({
  links: [httpLink({ url: "/api/trpc" })],
});

export function errorOf(e: unknown): YardErrorData {
  if (e instanceof TRPCClientError) {
    const yard = (e.data as { yard?: YardErrorData } | undefined)?.yard;
    if (yard) return yard;
    return { code: "INTERNAL", message: e.message, details: null, retryable: false };
  }
  return { code: "INTERNAL", message: e instanceof Error ? e.message : String(e), details: null, retryable: false };
}
