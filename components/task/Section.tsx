// A titled section of the task page's side column (a region named by its heading).
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
