// CPU accounting of another process from Linux's /proc, for benchmarks that measure what a child
// process (the pane host) costs: the whole process's CPU time (every thread, those that ended
// included), each live thread's CPU and run-queue wait, and what its reaped children used.
import { readdirSync, readFileSync } from "node:fs";

/** USER_HZ: the unit of the times in /proc/<pid>/stat (100 on every Linux architecture Node runs on). */
const TICKS_PER_S = 100;

/** Fields after the command name of /proc/<pid>/stat (field 3, `state`, is index 0). */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/**
 * CPU time (ms, user + system) of every thread of the process, ended threads included. The
 * kernel sums the threads' exact run times and reports them in 10 ms ticks.
 */
export function processCpuMs(pid: number): number {
  const f = statFields(pid);
  return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_S;
}

/** CPU time (ms) of the children the process has waited for (cutime + cstime). */
export function reapedChildrenCpuMs(pid: number): number {
  const f = statFields(pid);
  return ((Number(f[13]) + Number(f[14])) * 1000) / TICKS_PER_S;
}

/** Per live thread: time on a CPU and time runnable but waiting for one (ms, from schedstat: ns). */
export function threadSched(pid: number): Map<number, { cpuMs: number; waitMs: number }> {
  const out = new Map<number, { cpuMs: number; waitMs: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const [run, wait] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ");
      out.set(Number(tid), { cpuMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 });
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}

/** Per live thread: read and write system calls, and times it went to sleep (voluntary context switches). */
export function threadCalls(pid: number): Map<number, { reads: number; writes: number; sleeps: number }> {
  const out = new Map<number, { reads: number; writes: number; sleeps: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const io = readFileSync(`/proc/${pid}/task/${tid}/io`, "utf8");
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
      const field = (text: string, name: string) => Number(new RegExp(`${name}:\\s*(\\d+)`).exec(text)?.[1] ?? 0);
      out.set(Number(tid), {
        reads: field(io, "syscr"),
        writes: field(io, "syscw"),
        sleeps: field(status, "voluntary_ctxt_switches"),
      });
    } catch {
      /* the thread ended meanwhile */
    }
  }
  return out;
}

/** A thread's user and system CPU time (ms, 10 ms ticks). */
export function threadUserSys(pid: number, tid: number): { userMs: number; sysMs: number } {
  const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { userMs: (Number(f[11]) * 1000) / TICKS_PER_S, sysMs: (Number(f[12]) * 1000) / TICKS_PER_S };
}
