// Who wrote something a person or an agent can read back: the writing pane's id, else the acting
// person's name (actor.ts), else `user` (a write with no caller, or one recorded before people
// existed). One spelling for thread messages, acknowledgements, reviews, review comments and plan
// reviews, so a caller can compare any of them with a pane id or a person's name.
import { actingPerson } from "./actor";

export const USER_AUTHOR = "user";

export const authorOf = (paneId: string | null): string => paneId ?? actingPerson() ?? USER_AUTHOR;
