// What a journal event may store: every payload is bounded before it is written, whoever built
// it, because much of what the journal records comes from agents (hook fields, messages, result
// summaries, evidence, paths) and the journal keeps it for as long as retention allows.
//   - a string longer than LIMITS.eventString is cut, with a marker (`…[cut N characters]`);
//   - an array or object keeps its first LIMITS.eventEntries entries;
//   - nesting stops at LIMITS.eventDepth (deeper values become "[too deep]");
//   - then, while the whole payload is over LIMITS.eventPayloadBytes of JSON, its largest
//     top-level field is dropped.
// What was cut is said in the payload itself: `_cut` maps a field's path to its original length
// (characters or entries), `_omitted` names the dropped fields. The task and pane rows keep their
// own (separately capped) copies of anything cut here; the journal is the history, not the record.
import { cutText, LIMITS } from "../../wire/common";

/** Paths listed in `_cut` at most; the rest are counted in `_cut["…"]`. */
const MAX_CUT_PATHS = 20;

export function boundPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const cut: Record<string, number> = {};
  let cuts = 0;
  const note = (where: string, size: number) => {
    if (++cuts <= MAX_CUT_PATHS) cut[(where || "(payload)").slice(0, 200)] = size;
    else cut["…"] = cuts - MAX_CUT_PATHS;
  };
  const walk = (v: unknown, where: string, depth: number): unknown => {
    if (typeof v === "string") {
      if (v.length <= LIMITS.eventString) return v;
      note(where, v.length);
      return cutText(v, LIMITS.eventString);
    }
    if (v === null || typeof v !== "object") return v;
    const json = (v as { toJSON?: () => unknown }).toJSON;
    if (typeof json === "function") return walk(json.call(v), where, depth);
    if (depth >= LIMITS.eventDepth) {
      note(where, 1);
      return "[too deep]";
    }
    if (Array.isArray(v)) {
      if (v.length > LIMITS.eventEntries) note(where, v.length);
      return v.slice(0, LIMITS.eventEntries).map((x, i) => walk(x, `${where}[${i}]`, depth + 1));
    }
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length > LIMITS.eventEntries) note(where, entries.length);
    const out: Record<string, unknown> = {};
    for (const [k, x] of entries.slice(0, LIMITS.eventEntries))
      out[k] = walk(x, where ? `${where}.${k}` : k, depth + 1);
    return out;
  };
  const out = walk(payload, "", 0) as Record<string, unknown>;
  if (cuts) out._cut = cut;
  if (bytes(out) <= LIMITS.eventPayloadBytes) return out;
  // Still too big: drop the largest fields (never the notes about what was cut) until it fits.
  const sizes = Object.keys(out)
    .filter((k) => k !== "_cut")
    .map((k) => ({ k, n: bytes({ [k]: out[k] }) }))
    .sort((a, b) => b.n - a.n);
  const omitted: string[] = [];
  for (const { k } of sizes) {
    delete out[k];
    omitted.push(k.slice(0, 64));
    out._omitted = omitted;
    if (bytes(out) <= LIMITS.eventPayloadBytes) break;
  }
  return out;
}

function bytes(v: unknown): number {
  return Buffer.byteLength(JSON.stringify(v) ?? "");
}
