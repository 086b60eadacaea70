// The task page's "Details" and "Contract" sections: state, round, agent, branch, target, base,
// worktree and pane as a definition list; the objective, constraints, acceptance criteria and
// expected output format the task was started with.
import Link from "next/link";
import type { ReactNode } from "react";
import type { Task } from "../../lib/types";
import { STATE_WORDS } from "../ui";
import { Section, TitledList } from "./Section";
import { shortSha } from "./TaskHeader";

export function Details({ task: t }: { task: Task }) {
  return (
    <Section title="Details" id="sec-details">
      <dl className="grid grid-cols-[5.5rem_1fr] gap-x-2 gap-y-1 text-xs">
        <Row name="State">{STATE_WORDS[t.state] ?? t.state}</Row>
        <Row name="Round">{t.round}</Row>
        <Row name="Agent">{t.agent}</Row>
        <Row name="Branch">{t.branch ? <span className="font-mono">{t.branch}</span> : "—"}</Row>
        <Row name="Target">{t.targetBranch ? <span className="font-mono">{t.targetBranch}</span> : "—"}</Row>
        <Row name="Base">
          <span className="font-mono" title={t.baseSha ?? ""}>
            {shortSha(t.baseSha)}
            {t.baseRef ? ` (${t.baseRef})` : ""}
          </span>
        </Row>
        <Row name="Worktree">
          {t.worktreePath ? <span className="break-all font-mono text-[11px]">{t.worktreePath}</span> : "—"}
        </Row>
        <Row name="Pane">
          {t.paneId ? (
            <Link href={`/panes/${t.paneId}`} className="font-mono text-accent hover:underline">
              {t.paneId}
            </Link>
          ) : (
            "—"
          )}
        </Row>
      </dl>
    </Section>
  );
}

/** One term and its value in a two-column definition list. */
export function Row({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-fg-muted">{name}</dt>
      <dd className="min-w-0">{children}</dd>
    </div>
  );
}

export function Contract({ task: t }: { task: Task }) {
  const c = t.contract;
  return (
    <Section title="Contract" id="sec-contract">
      <div className="flex flex-col gap-2 text-sm">
        <div>
          <div className="text-xs font-semibold">Objective</div>
          <pre className="mt-0.5 max-h-48 overflow-auto whitespace-pre-wrap font-mono text-xs">{c.objective}</pre>
        </div>
        {c.constraints.length > 0 && <TitledList title="Constraints" items={c.constraints} />}
        {c.acceptanceCriteria.length > 0 && <TitledList title="Acceptance criteria" items={c.acceptanceCriteria} />}
        {c.outputFormat && (
          <div>
            <div className="text-xs font-semibold">Expected output format</div>
            <p className="mt-0.5 whitespace-pre-wrap text-xs">{c.outputFormat}</p>
          </div>
        )}
      </div>
    </Section>
  );
}
