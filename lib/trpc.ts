// The browser's tRPC wiring: the typed React Query integration (useTRPC / TRPCProvider), the
// client factory (same-origin; the session cookie and the session key header authenticate it),
// and the one way the UI reads an error: the server's {code, message, details} from the shared
// registry.
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { inferRouterError } from "@trpc/server";
import type { AppRouter } from "../server/api/router";
import { sessionHeaders } from "./session";

/** The server's error, as its error formatter puts it in every failed call's `data.yard`. */
export type YardErrorData = NonNullable<inferRouterError<AppRouter>["data"]["yard"]>;

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

export function makeTrpcClient() {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: "/api/trpc", headers: sessionHeaders })] });
}

export function errorOf(e: unknown): YardErrorData {
  if (e instanceof TRPCClientError) {
    const yard = (e.data as { yard?: YardErrorData } | undefined)?.yard;
    if (yard) return yard;
    return { code: "INTERNAL", message: e.message, details: null, retryable: false };
  }
  return { code: "INTERNAL", message: e instanceof Error ? e.message : String(e), details: null, retryable: false };
}

/** A server validation error's issues, keyed by zod path (`objective`, `constraints.0`, `baseRef`). */
export function issuesOf(e: YardErrorData | null | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const issues = (e?.details as { issues?: Array<{ path?: string | Array<string | number>; message?: string }> } | null)
    ?.issues;
  if (!Array.isArray(issues)) return out;
  for (const i of issues) {
    const p = Array.isArray(i.path) ? i.path.join(".") : (i.path ?? "");
    if (!(p in out)) out[p] = i.message ?? "invalid";
  }
  return out;
}
