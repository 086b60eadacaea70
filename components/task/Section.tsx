// A titled section of the task page's side column (a region named by its heading), and the titled
// bullet list several of them show (constraints, acceptance criteria, changed files, artifacts).
import type { ReactNode } from "react";

export function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="border-b border-line pb-4 last:border-b-0">
      <h2 id={id} className="mb-2 text-xs font-semibold uppercase tracking-wide text-fg-muted">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function TitledList({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <div className="text-xs font-semibold">{title}</div>
      <ul className="mt-0.5 list-inside list-disc text-xs">
        {items.map((x, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of strings that may repeat
          <li key={i}>{x}</li>
        ))}
      </ul>
    </div>
  );
}
