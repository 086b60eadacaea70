// Output written just before a PTY's process exits is never lost: makes a node-pty (1.1, Unix)
// terminal close its read side only after everything the kernel still holds has been read.
//
// Two ways node-pty + libuv drop a pane's last output, both ending in `socket.destroy()`
// (which closes the master fd; node-pty reports exit on the socket's close):
// - libuv reports EOF early on a PTY: on POLLHUP after a short read it assumes the fd is
//   drained, but a PTY hands out at most a few KB per read, so KBs can still be queued in the
//   kernel (seen here: `seq 1 10000` lost its last 5-10 % in 3 of 10 runs, event loop idle).
// - node-pty destroys the socket 200 ms after the process exit is reported if it has not
//   closed by then (its safety timeout): with the main thread busy, or the socket paused, the
//   unread output goes.
// So every destroy first drains: it takes what the stream buffered (read(), which emits the
// usual 'data' events), then reads the non-blocking master fd directly until EIO (no writer left
// and nothing queued; on Linux the session leader's exit hangs the terminal up, so this is the
// normal end) or EAGAIN (a writer outlived it: what it writes later is not the pane's), emitting
// each chunk as 'data' on the socket so onData subscribers get it in order. The drain is bounded
// (MAX_DRAIN_BYTES) and runs once; node-pty's 200 ms timeout stays the bound on waiting.
import { readSync } from "node:fs";
import type { IPty } from "node-pty";

interface PtySocket {
  destroy(error?: Error): unknown;
  read(): Buffer | string | null;
  emit(event: "data", chunk: Buffer): boolean;
  readonly destroyed: boolean;
}

const READ_SIZE = 64 * 1024;
/** More than a PTY's kernel buffer by far; stops a runaway writer from pinning the loop. */
const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Installs the drain on `proc`'s read side. Returns false when node-pty's internals are not the
 * ones this was written against (node-pty's own behaviour is then left unchanged).
 */
export function holdExitUntilDrained(proc: IPty): boolean {
  const internals = proc as unknown as { _socket?: PtySocket; _fd?: number };
  const socket = internals._socket;
  const fd = internals._fd;
  if (!socket || typeof socket.destroy !== "function" || typeof socket.read !== "function" || typeof fd !== "number")
    return false;
  const realDestroy = socket.destroy;
  let drained = false;

  const drain = () => {
    drained = true;
    if (socket.destroyed) return; // the fd is closed (and its number may be reused): never read it
    while (socket.read() !== null) {
      // read() emitted the buffered chunk as 'data'
    }
    for (let total = 0; total < MAX_DRAIN_BYTES; ) {
      const buf = Buffer.allocUnsafe(READ_SIZE);
      let n: number;
      try {
        n = readSync(fd, buf, 0, READ_SIZE, null);
      } catch {
        return; // EIO: drained; EAGAIN: nothing queued now
      }
      if (n === 0) return;
      total += n;
      socket.emit("data", buf.subarray(0, n));
    }
  };

  socket.destroy = function (this: unknown, error?: Error) {
    if (!drained) drain();
    return realDestroy.call(this, error);
  };
  return true;
}
