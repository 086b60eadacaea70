// Who the board's user is (whoami, read once per page) and how the UI names whoever did
// something: "You" for the signed-in person (and for `user`, what was recorded before people
// existed), a person's name for anyone else, a pane's id for an agent.
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "./trpc";

export interface Me {
  name: string;
  role: "member" | "reviewer" | "admin";
}

export function useMe(): Me | null {
  const trpc = useTRPC();
  const q = useQuery({ ...trpc.whoami.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  return q.data?.person ?? null;
}

/** A pane's id (agents), as opposed to a person's name. */
export const isPaneId = (author: string) => /^pane[0-9a-z]{10}$/.test(author);

/** A person's name as the signed-in person reads it. */
export function personWords(name: string, me: Me | null): string {
  return name === "user" || name === me?.name ? "You" : name;
}

/** Two letters for an avatar: the name's first letter and the next letter after a - or _, else its second. */
export function initials(name: string): string {
  const parts = name.split(/[-_]/).filter(Boolean);
  return (parts.length > 1 ? parts[0]![0]! + parts[1]![0]! : name.slice(0, 2)).toUpperCase();
}
