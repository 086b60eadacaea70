// Per-repository serialization: an in-process async mutex keyed by string.
// The git layer keys it by the repository's common git dir (realpath), so the main checkout
// and all of its linked worktrees share one lock. Callers queue in FIFO order; a throwing
// critical section releases the lock. Not a cross-process lock: one Switchyard server owns
// a repository's worktrees; git's own lock files guard against anything else.

export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }

  /** True while some caller holds or waits for `key`. */
  isLocked(key: string): boolean {
    return this.tails.has(key);
  }
}

const repoLocks = new KeyedMutex();

/** Run `fn` while holding the lock for one repository (key: its common git dir). */
export function withRepoLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  return repoLocks.run(key, fn);
}
