// Start-up recovery: the pane rows not recorded as exited are matched with the panes the host
// still runs. A pane the host has is reattached, its state rebuilt from its row (lifecycle, seq,
// doneSeen, hooksSeen); exits the host recorded while no server was attached follow later as host
// events. A row the host has no pane for is stale: marked exited and journaled `pane.lost`.
// Processes the host runs that no row says are running cannot be reached by anyone: ended.
// Panes on runners (several hosts, host-router.ts) are matched with their runner's host.
import type { PaneRow, PaneStore } from "../../stores/panes";
import type { EventJournal } from "../events/journal";
import type { PaneHostPort } from "./host-port";
import { initialPaneState, type Lifecycle, LIFECYCLES, type PaneState } from "./lifecycle";
import type { LifecycleDriver } from "./lifecycle-driver";
import { type PaneRegistry, toInfo } from "./registry";

export interface RecoveryDeps {
  store: PaneStore;
  journal: EventJournal;
  host: PaneHostPort;
  registry: PaneRegistry;
  lifecycle: LifecycleDriver;
}

/** Reattaches and fails panes as above; returns each lost pane's last lifecycle. */
export async function recoverPanes(deps: RecoveryDeps): Promise<Map<string, string>> {
  const stale = await deps.store.unexited();
  // Runners' hosts are reached first; one out of reach keeps its panes (its agents may well run on
  // there), tracked as running, until it answers again or its grace period ends (host-router.ts).
  const onRunners = stale.flatMap((r) => (r.runner ? [{ id: r.id, runner: r.runner }] : []));
  const unreachable = (await deps.host.openRunners?.(onRunners)) ?? new Set<string>();
  const held = new Map(deps.host.hello.panes.map((p) => [p.paneId, p]));
  const lost = new Map<string, string>();
  for (const row of stale) {
    if (row.runner && unreachable.has(row.runner)) {
      deps.registry.track({ ...toInfo(row), live: true }, stateOf(row), false, {});
      continue;
    }
    const h = held.get(row.id);
    held.delete(row.id);
    if (h) {
      const state = stateOf(row);
      const lifecycle = state.lifecycle;
      const pane = deps.registry.track(
        { ...toInfo(row), pid: h.pid, cols: h.cols, rows: h.rows, live: true },
        state,
        h.meta.hooks === true,
        { sandboxNetwork: h.meta.sandboxNetwork === true },
      );
      await deps.journal.append("pane.reattached", {
        paneId: row.id,
        taskId: row.taskId,
        payload: { pid: h.pid, lifecycle, hostState: h.state },
      });
      if (!pane.hooks && !state.hooksSeen && h.state === "running") deps.lifecycle.armQuiescence(pane);
      continue;
    }
    await deps.store.markLost(row.id);
    await deps.journal.append("pane.lost", {
      paneId: row.id,
      taskId: row.taskId,
      payload: { lastLifecycle: row.lifecycle, reason: "server_restart" },
    });
    lost.set(row.id, row.lifecycle);
  }
  for (const h of held.values())
    if (h.state === "running") void deps.host.request("kill", { paneId: h.paneId, graceMs: 1000 }).catch(() => {});
  return lost;
}

/** A pane's lifecycle state rebuilt from its row (lifecycle, seq, doneSeen, hooksSeen). */
function stateOf(row: PaneRow): PaneState {
  const lifecycle = (LIFECYCLES as readonly string[]).includes(row.lifecycle)
    ? (row.lifecycle as Lifecycle)
    : "unknown";
  return {
    ...initialPaneState(),
    lifecycle,
    seq: row.lifecycleSeq,
    doneSeen: row.doneSeen,
    hooksSeen: row.hooksSeen,
    lastTransitionAt: row.updatedAt.getTime(),
  };
}
