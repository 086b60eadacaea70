// Event journal type globs at their longest: `events.list` with the most expensive glob the API
// accepts (99 characters, 49 stars, a near miss for every event type) against a two-character
// glob that also scans every row and matches none (`*x`), over the same 20,000-event journal.
// Target: flat in pattern length (ratio ≤ 1.5×). A regex translation of the long glob
// backtracked for seconds per row; the matcher is linear in pattern and text.
import { EventStore } from "../server/stores/events";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { globMatch } from "../server/wire/glob";
import { EventJournal } from "../server/core/events/journal";
import { openDatabase } from "../server/db";
import { median } from "./stats";
import type { BenchResult } from "./types";

const TYPES = [
  "task.created",
  "task.state",
  "task.result",
  "task.finished",
  "pane.spawned",
  "pane.lifecycle",
  "pane.hook",
  "pane.exit",
  "pane.submitted",
  "pane.seen",
];
const RUNS = 7;

export async function run(): Promise<BenchResult[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "yard-bench-events-"));
  const { db } = await openDatabase(path.join(dir, "yard.db"));
  try {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ type: TYPES[i % TYPES.length]!, payload: "{}" }));
    for (let i = 0; i < rows.length; i += 1000) await db.event.createMany({ data: rows.slice(i, i + 1000) });
    const journal = new EventJournal(new EventStore(db));
    const longest = `${"*a".repeat(49)}*`; // 99 characters
    const short = "*x";
    if (globMatch(longest, "task.state") || globMatch(short, "task.state"))
      throw new Error("bench globs must match nothing");
    const time = async (type: string) => {
      const t = performance.now();
      const r = await journal.list({ type, limit: 10_000 });
      if (r.length !== 0) throw new Error("unexpected matches");
      return performance.now() - t;
    };
    await time(short);
    await time(longest);
    const a: number[] = [];
    const b: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      b.push(await time(short));
      a.push(await time(longest));
    }
    const value = median(a);
    const baseline = median(b);
    const ratio = value / baseline;
    return [
      {
        name: "events.list, 99-char glob vs 2-char glob (20,000 events)",
        value,
        baseline,
        ratio,
        unit: "ms",
        target: "≤ 1.5×",
        pass: ratio <= 1.5,
      },
    ];
  } finally {
    await db.$disconnect();
    rmSync(dir, { recursive: true, force: true });
  }
}
