// The CLI's view of the API's results: inferred from the router, never written by hand.
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "../server/api/router";

type Outputs = inferRouterOutputs<AppRouter>;
export type Pane = Outputs["panes"]["get"];
export type Task = Outputs["tasks"]["get"];
/** A journal event: a union discriminated by `type` (server/wire/events.ts). */
export type YardEvent = Outputs["events"]["list"]["events"][number];
