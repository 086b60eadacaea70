// Task actions that need the process running the task's agent: on a board shared by several
// server processes, each agent runs under one process (its pane manager, the task's turn and its
// in-memory engine state). A cancel, finish, follow-up, answer, review verdict, branch update or
// turn revert called on another process is passed whole to that one, with who asked, and answered
// from there: it runs the same procedure, its role gates included. Called on the owner (or for a
// task whose agent runs nowhere, or on a board of one process), the action runs here.
import { currentActor } from "../core/actor";
import type { Person } from "../core/people/people";
import type { CallingPane } from "../core/tasks/access";
import type { AtOwnerPath } from "../wire/peer";
import type { ApiCall } from "./trpc";

/** Who asked, as the owner rebuilds its call: a person (by id, name and role) or a pane. */
export type ForwardedCaller = { kind: "person"; person: Person } | { kind: "pane"; pane: CallingPane };

function callerOf(ctx: ApiCall): ForwardedCaller {
  if (ctx.principal.kind === "person") {
    const { id, name, role } = ctx.principal.person;
    return { kind: "person", person: { id, name, role } };
  }
  return { kind: "pane", pane: ctx.pane! };
}

/** The call the owner makes of its own router: the forwarded caller as its request context. */
export function callFromPeer(services: ApiCall["services"], caller: ForwardedCaller): ApiCall {
  return caller.kind === "person"
    ? { services, principal: { kind: "person", person: caller.person }, pane: null, forwarded: true }
    : { services, principal: { kind: "pane", paneId: caller.pane.id, secret: "" }, pane: caller.pane, forwarded: true };
}

/**
 * Wraps a procedure's handler: the task `taskIdOf(input)` names, when its agent runs under another
 * running process, is acted on there; otherwise here.
 */
export function atOwner<I, O>(
  path: AtOwnerPath,
  taskIdOf: (input: I) => string,
  handler: (opts: { ctx: ApiCall; input: I }) => Promise<O>,
): (opts: { ctx: ApiCall; input: I }) => Promise<O> {
  return async (opts) => {
    const { ctx, input } = opts;
    if (!ctx.forwarded && ctx.services.peers.presence.shared) {
      const row = await ctx.services.tasks.row(taskIdOf(input)).catch(() => null);
      const link = row?.paneId ? await ctx.services.peers.remote(row.paneId) : null;
      if (link) return (await link.call({ path, input, caller: callerOf(ctx), actor: currentActor() })) as O;
    }
    return handler(opts);
  };
}
