// Final screens of exited panes: captured from the live mirror once every byte is parsed, kept
// durably as one mode-0600 JSON file per pane (`<dir>/<paneId>.json`, dir mode 0700, written to a
// temp file, fsynced and renamed into place), and served afterwards — also after a restart — as
// the browser snapshot (the saved serialize() output) and through read-only mirrors rebuilt on
// demand with the same absolute line numbers and delta memo. Rebuilt mirrors live in a small LRU
// and are disposed on eviction or after sitting unused, so memory does not grow with the number
// of panes ever run.
import { randomBytes } from "node:crypto";
import { promises as fsp } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { YardError } from "../errors";
import type { ReaderView, TerminalMirror } from "./mirror";

const VERSION = 1;
const ID = /^pane[a-z0-9]{4,40}$/;

export interface FinalScreen {
  cols: number;
  rows: number;
  scrollback: number;
  /** Absolute number of the first retained line, and one past the last content line. */
  firstLine: number;
  head: number;
  altScreen: boolean;
  /** SerializeAddon output: written into a fresh terminal of cols x rows it reproduces the screen. */
  data: string;
  /** The delta memo at capture (mirror.exportViews()). */
  views: ReaderView[];
}

const fileSchema = z.object({
  version: z.literal(VERSION),
  paneId: z.string().regex(ID),
  savedAt: z.string(),
  cols: z.number().int().min(1).max(10_000),
  rows: z.number().int().min(1).max(10_000),
  scrollback: z.number().int().min(0),
  firstLine: z.number().int().min(0),
  head: z.number().int().min(0),
  altScreen: z.boolean(),
  data: z.string(),
  views: z.array(
    z.object({
      reader: z.string(),
      cursor: z.number().int().min(0),
      v: z.number().int(),
      h: z.number().int(),
      lines: z.array(z.string()),
      current: z.boolean(),
    }),
  ),
});

/** Everything the mirror shows once all output written to it so far is parsed. */
export async function captureFinalScreen(mirror: TerminalMirror): Promise<FinalScreen> {
  await mirror.flush();
  const data = await mirror.serialize(); // parsed in order after the flush: nothing is pending
  return {
    cols: mirror.cols,
    rows: mirror.rows,
    scrollback: mirror.scrollbackLines,
    firstLine: mirror.firstLine,
    head: mirror.head,
    altScreen: mirror.altScreen,
    data,
    views: mirror.exportViews(),
  };
}

export interface FinalScreenStoreOptions {
  /** Rebuilt mirrors kept at once (default 3). */
  cacheSize?: number;
  /** A rebuilt mirror unused this long is disposed (default 30 s). */
  idleMs?: number;
}

interface CacheEntry {
  mirror: Promise<TerminalMirror | null>;
  /** The rebuilt mirror once ready (so eviction disposes it at once). */
  ready: TerminalMirror | null;
  timer: NodeJS.Timeout | null;
}

export class FinalScreenStore {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly cacheSize: number;
  private readonly idleMs: number;

  constructor(
    readonly dir: string,
    opts: FinalScreenStoreOptions = {},
  ) {
    this.cacheSize = Math.max(1, opts.cacheSize ?? 3);
    this.idleMs = opts.idleMs ?? 30_000;
  }

  private file(paneId: string): string {
    if (!ID.test(paneId)) throw new YardError("BAD_PARAMS", `not a pane id: ${paneId}`, { paneId });
    return path.join(this.dir, `${paneId}.json`);
  }

  /** Writes the screen durably: temp file (0600) + fsync + rename + fsync of the directory. */
  async save(paneId: string, screen: FinalScreen): Promise<void> {
    const target = this.file(paneId);
    await fsp.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await fsp.chmod(this.dir, 0o700);
    const body = JSON.stringify({ version: VERSION, paneId, savedAt: new Date().toISOString(), ...screen });
    const tmp = path.join(this.dir, `.${paneId}.${randomBytes(6).toString("hex")}.tmp`);
    const fh = await fsp.open(tmp, "wx", 0o600);
    try {
      await fh.writeFile(body, "utf8");
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      await fsp.rename(tmp, target);
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      throw e;
    }
    const dh = await fsp.open(this.dir, "r");
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
    this.evict(paneId); // a rebuilt mirror of an older save is stale
  }

  /** The saved screen, or null when none was saved (or the file is unreadable). */
  async load(paneId: string): Promise<FinalScreen | null> {
    let text: string;
    try {
      text = await fsp.readFile(this.file(paneId), "utf8");
    } catch {
      return null;
    }
    let parsed: z.infer<typeof fileSchema>;
    try {
      parsed = fileSchema.parse(JSON.parse(text));
    } catch {
      return null;
    }
    if (parsed.paneId !== paneId) return null;
    const { version: _v, paneId: _p, savedAt: _s, ...screen } = parsed;
    return screen;
  }

  /**
   * A read-only mirror holding the saved screen under its original line numbers (null when none
   * was saved). Shared by callers until evicted; callers must not write to it.
   */
  mirror(paneId: string): Promise<TerminalMirror | null> {
    const hit = this.cache.get(paneId);
    if (hit) {
      this.cache.delete(paneId); // most recently used last
      this.cache.set(paneId, hit);
      this.touch(paneId, hit);
      return hit.mirror;
    }
    const entry: CacheEntry = { mirror: this.rebuild(paneId), ready: null, timer: null };
    this.cache.set(paneId, entry);
    this.touch(paneId, entry);
    while (this.cache.size > this.cacheSize) this.evict(this.cache.keys().next().value!);
    const forget = () => {
      if (this.cache.get(paneId) === entry) this.evict(paneId);
    };
    void entry.mirror.then((m) => {
      if (!m) return forget(); // a miss is not cached
      if (this.cache.get(paneId) === entry) entry.ready = m;
      else m.dispose(); // evicted while it was being rebuilt
    }, forget);
    return entry.mirror;
  }

  /** Rebuilt mirrors currently held (for tests and the bench). */
  get cached(): number {
    return this.cache.size;
  }

  private async rebuild(paneId: string): Promise<TerminalMirror | null> {
    const screen = await this.load(paneId);
    if (!screen) return null;
    const { TerminalMirror } = await import("./mirror");
    const mirror = new TerminalMirror({
      cols: screen.cols,
      rows: screen.rows,
      scrollback: screen.scrollback,
      startLine: screen.firstLine,
      views: screen.views,
    });
    mirror.write(screen.data);
    await mirror.flush();
    return mirror;
  }

  private touch(paneId: string, entry: CacheEntry): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.evict(paneId), this.idleMs);
    entry.timer.unref();
  }

  private evict(paneId: string): void {
    const entry = this.cache.get(paneId);
    if (!entry) return;
    this.cache.delete(paneId);
    if (entry.timer) clearTimeout(entry.timer);
    entry.ready?.dispose(); // (one still being rebuilt is disposed when ready, see mirror())
    entry.ready = null;
  }

  /** Disposes every rebuilt mirror. */
  close(): void {
    for (const id of [...this.cache.keys()]) this.evict(id);
  }
}
