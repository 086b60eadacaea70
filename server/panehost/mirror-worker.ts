// A mirror worker thread of the pane host: owns the TerminalMirror of each pane assigned to it,
// so parsing never runs on the thread that reads the PTYs. It takes byte chunks (transferred),
// resizes and reads (screen, tail, delta, snapshot, bracketed-paste mode) in order, reports how
// far each mirror has parsed (the host's backpressure), forwards xterm faults, and at exit
// captures the final screen, saves it (final-screen.ts) and disposes the mirror.
import { parentPort, workerData } from "node:worker_threads";
import { YardError } from "../core/errors";
import { captureFinalScreen, FinalScreenStore } from "../core/panes/final-screen";
import { TerminalMirror } from "../core/panes/mirror";
import { toWireError } from "./protocol";
import type { WorkerIn, WorkerOut, WorkerRead } from "./worker-messages";

const port = parentPort!;
const store = new FinalScreenStore((workerData as { screens: string }).screens);

interface Entry {
  mirror: TerminalMirror;
  /** Bytes written so far (parsed = written - mirror.pendingBytes). */
  written: number;
}

const mirrors = new Map<string, Entry>();
const dirty = new Set<string>();
let reportQueued = false;

const post = (m: WorkerOut) => port.postMessage(m);

/** One progress report per parse turn (the mirror parses from setImmediate; this runs right after). */
function report() {
  reportQueued = false;
  const list: Array<[string, number]> = [];
  for (const id of dirty) {
    const e = mirrors.get(id);
    if (e) list.push([id, e.written - e.mirror.pendingBytes]);
  }
  dirty.clear();
  if (list.length) post({ t: "parsed", list });
}

function markParsed(id: string) {
  dirty.add(id);
  if (!reportQueued) {
    reportQueued = true;
    queueMicrotask(report);
  }
}

function entry(id: string): Entry {
  const e = mirrors.get(id);
  if (!e || e.mirror.isDisposed) throw new YardError("PANE_EXITED", `Pane ${id} has no live mirror`, { paneId: id });
  return e;
}

async function read(e: Entry, args: WorkerRead) {
  const m = e.mirror;
  if (args.mode === "delta") {
    const d = await m.delta(args.cursor ?? 0, args.reader ? { reader: args.reader } : undefined);
    return { text: d.text, cursor: d.cursor, start: d.start, dropped: d.dropped };
  }
  const r = args.mode === "tail" ? await m.tail(args.lines ?? 50) : await m.screen();
  return { text: r.text, cursor: r.cursor, start: r.cursor, dropped: null };
}

async function request(op: string, id: string, args: Record<string, unknown>): Promise<unknown> {
  if (op === "count") return { mirrors: mirrors.size };
  const e = entry(id);
  switch (op) {
    case "read":
      return read(e, args as unknown as WorkerRead);
    case "snapshot": {
      const data = await e.mirror.serialize();
      return { data, cols: e.mirror.cols, rows: e.mirror.rows };
    }
    case "modes":
      await e.mirror.flush();
      return { bracketedPaste: e.mirror.bracketedPasteMode };
    case "finalize": {
      // Everything written is parsed and saved before the pane is reported exited.
      let error: string | null = null;
      try {
        await store.save(id, await captureFinalScreen(e.mirror));
      } catch (err) {
        error = (err as Error).message;
      }
      const faults = e.mirror.faults;
      e.mirror.dispose();
      mirrors.delete(id);
      dirty.delete(id);
      return { error, faults };
    }
    default:
      throw new YardError("BAD_PARAMS", `unknown worker request ${op}`);
  }
}

port.on("message", (m: WorkerIn) => {
  switch (m.t) {
    case "create": {
      const mirror = new TerminalMirror({
        cols: m.cols,
        rows: m.rows,
        scrollback: m.scrollback,
        onFault: (error) =>
          post({ t: "fault", id: m.id, message: error.message, name: error.name, count: mirror.faults }),
      });
      mirror.onWriteParsed(() => markParsed(m.id));
      mirrors.set(m.id, { mirror, written: 0 });
      return;
    }
    case "write": {
      const e = mirrors.get(m.id);
      if (!e) return;
      for (const data of m.data) {
        e.written += data.byteLength;
        e.mirror.write(new Uint8Array(data));
      }
      return;
    }
    case "resize":
      mirrors.get(m.id)?.mirror.resize(m.cols, m.rows);
      return;
    case "dispose": {
      mirrors.get(m.id)?.mirror.dispose();
      mirrors.delete(m.id);
      return;
    }
    case "req":
      request(m.op, m.id, m.args).then(
        (result) => post({ t: "res", rid: m.rid, ok: true, result }),
        (err) => post({ t: "res", rid: m.rid, ok: false, error: toWireError(err) }),
      );
      return;
  }
});
