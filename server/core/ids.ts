// Short, typeable ids with a kind prefix (prj…, tsk…, pane…): readable in the CLI and logs.
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

export function newId(
  prefix:
    | "prj"
    | "tsk"
    | "pane"
    | "rnd"
    | "rev"
    | "cmt"
    | "pln"
    | "msg"
    | "agt"
    | "wtr"
    | "tpl"
    | "usr"
    | "tok"
    | "inv"
    | "dlv"
    | "rnr"
    | "psh",
): string {
  const bytes = randomBytes(10);
  let s = "";
  for (const b of bytes) s += ALPHABET[b & 31];
  return prefix + s;
}
