// Who is acting, for the length of one API call: the person (by name) or the pane (by id) whose
// request is being served. The API edge runs each call inside `actingAs`; the journal stamps every
// event appended during it with the actor (the audit trail), and authorOf names the person on
// what they write (reviews, comments, messages). Work that outlives the call but was started by
// it (a task's start, a merge) is the same person's doing and carries their name too. Events with
// no caller (the pane host, timers set up at start) have no actor.
import { AsyncLocalStorage } from "node:async_hooks";

export type Actor = { kind: "person"; name: string } | { kind: "pane"; paneId: string };

const current = new AsyncLocalStorage<Actor>();

export function actingAs<T>(actor: Actor, fn: () => T): T {
  return current.run(actor, fn);
}

/** Who is acting now, or null (no caller): what a call forwarded to another process carries along. */
export function currentActor(): Actor | null {
  return current.getStore() ?? null;
}

/** The acting person's name, or null (a pane, or no caller). */
export function actingPerson(): string | null {
  const a = current.getStore();
  return a?.kind === "person" ? a.name : null;
}
