// Worktree sizes, measured off the request path and cached with the time they were taken: one
// bounded walk at a time (walk.ts), queued; a path asked for again while it waits is measured
// once. Readers (the page, the board's budget banner) only read the cache and never wait on a
// walk. A path that is gone leaves the cache.
import type { WorktreeEntry } from "../../wire/worktrees";
import { measureTree, WALK_LIMITS, type WalkLimits } from "./walk";

export type Measured = NonNullable<WorktreeEntry["size"]>;

export class WorktreeSizes {
  private readonly cache = new Map<string, Measured>();
  private readonly queued = new Set<string>();
  private chain: Promise<void> = Promise.resolve();
  private running = 0;
  private readonly ac = new AbortController();

  constructor(private readonly opts: { limits?: WalkLimits; now?: () => Date; log?: (line: string) => void } = {}) {}

  get(p: string): Measured | null {
    return this.cache.get(p) ?? null;
  }

  /** A walk is running or queued. */
  get measuring(): boolean {
    return this.running > 0 || this.queued.size > 0;
  }

  /** Every measured path and its size. */
  get all(): ReadonlyMap<string, Measured> {
    return this.cache;
  }

  /** Drops paths from the cache (removed, or no longer a Switchyard worktree). */
  forget(paths: Iterable<string>): void {
    for (const p of paths) this.cache.delete(p);
  }

  /** Queues a measurement of each path (one walk at a time); resolves once they are measured. */
  measure(paths: readonly string[]): Promise<void> {
    const mine: Array<Promise<void>> = [];
    for (const p of paths) {
      if (this.queued.has(p)) continue;
      this.queued.add(p);
      const run = async () => {
        if (!this.queued.delete(p) || this.ac.signal.aborted) return;
        this.running++;
        try {
          const size = await measureTree(p, this.opts.limits ?? WALK_LIMITS, this.ac.signal);
          if (this.ac.signal.aborted) return;
          if (!size) this.cache.delete(p);
          else this.cache.set(p, { ...size, measuredAt: (this.opts.now?.() ?? new Date()).toISOString() });
        } catch (e) {
          this.opts.log?.(`size of ${p} not measured: ${(e as Error)?.message ?? e}`);
        } finally {
          this.running--;
        }
      };
      this.chain = this.chain.then(run, run);
      mine.push(this.chain);
    }
    return Promise.all(mine).then(() => {});
  }

  /** Stops: the walk in progress ends at its next directory, queued ones do not run. */
  async stop(): Promise<void> {
    this.ac.abort();
    this.queued.clear();
    await this.chain.catch(() => {});
  }
}

/** The total of the measured paths, a path inside another counted once (with the outer one). */
export function totalOf(sizes: ReadonlyMap<string, Measured>): {
  bytes: number;
  truncated: boolean;
  oldest: string | null;
} {
  const paths = [...sizes.keys()].sort();
  let bytes = 0;
  let truncated = false;
  let oldest: string | null = null;
  let outer: string | null = null;
  for (const p of paths) {
    if (outer && p.startsWith(`${outer}/`)) continue;
    outer = p;
    const s = sizes.get(p)!;
    bytes += s.bytes;
    truncated ||= s.truncated;
    if (!oldest || s.measuredAt < oldest) oldest = s.measuredAt;
  }
  return { bytes, truncated, oldest };
}
