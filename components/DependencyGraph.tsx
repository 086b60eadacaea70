"use client";
// The board's graph view: the shown tasks as nodes laid out in layers by dependency depth (a task
// sits one layer right of its deepest dependency), with an arrow from each dependency to its
// dependent. Nodes are links to the task pages (named by title); each edge is an SVG element
// named "<dependency> → <dependent>". Edges to tasks outside the shown set are left out.
import Link from "next/link";
import { useMemo } from "react";
import type { Card } from "./Board";
import { StateBadge } from "./ui";

const W = 200;
const H = 60;
const GAP_X = 72;
const GAP_Y = 20;
const PAD = 16;

interface Laid {
  card: Card;
  x: number;
  y: number;
}

function layout(cards: Card[]): {
  nodes: Laid[];
  edges: Array<{ from: Laid; to: Laid }>;
  width: number;
  height: number;
} {
  const byId = new Map(cards.map((c) => [c.id, c]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0; // a cycle cannot be stored, but never loop on bad data
    visiting.add(id);
    const deps = (byId.get(id)?.dependsOn ?? []).filter((d) => byId.has(d));
    const d = deps.length ? 1 + Math.max(...deps.map(depthOf)) : 0;
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  const layers: Card[][] = [];
  // Oldest first inside a layer, so the picture is stable as tasks move between columns.
  for (const c of [...cards].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt)))
    (layers[depthOf(c.id)] ??= []).push(c);
  const nodes = new Map<string, Laid>();
  for (const [i, layer] of layers.entries()) {
    for (const [j, card] of (layer ?? []).entries()) {
      nodes.set(card.id, { card, x: PAD + i * (W + GAP_X), y: PAD + j * (H + GAP_Y) });
    }
  }
  const edges = cards.flatMap((c) =>
    c.dependsOn.filter((d) => nodes.has(d)).map((d) => ({ from: nodes.get(d)!, to: nodes.get(c.id)! })),
  );
  const rows = Math.max(1, ...layers.map((l) => l?.length ?? 0));
  return {
    nodes: [...nodes.values()],
    edges,
    width: PAD * 2 + layers.length * W + Math.max(0, layers.length - 1) * GAP_X,
    height: PAD * 2 + rows * H + (rows - 1) * GAP_Y,
  };
}

export function DependencyGraph({ cards, scope }: { cards: Card[] | null; scope: string }) {
  const g = useMemo(() => (cards ? layout(cards) : null), [cards]);
  if (!g)
    return (
      <div aria-busy="true" className="min-h-64 flex-1 animate-pulse rounded-lg border border-line bg-canvas-subtle" />
    );
  return (
    <section
      aria-label={`Dependency graph: ${scope}`}
      className="min-h-64 flex-1 overflow-auto rounded-lg border border-line bg-canvas-subtle"
    >
      {g.nodes.length === 0 ? (
        <p className="p-4 text-sm text-fg-muted">No tasks to show.</p>
      ) : (
        <>
          {g.edges.length === 0 && (
            <p className="px-4 pt-3 text-xs text-fg-muted">
              No dependencies between these tasks yet: drop one Backlog card onto another to make one.
            </p>
          )}
          <div className="relative" style={{ width: g.width, height: g.height }}>
            {/* biome-ignore lint/a11y/useSemanticElements: an SVG drawing: a fieldset cannot hold it */}
            <svg
              width={g.width}
              height={g.height}
              className="absolute inset-0 text-fg-subtle"
              role="group"
              aria-label="Dependencies"
            >
              <defs>
                <marker
                  id="dep-arrow"
                  viewBox="0 0 10 10"
                  refX="9"
                  refY="5"
                  markerWidth="7"
                  markerHeight="7"
                  orient="auto-start-reverse"
                >
                  <path d="M 0 0 L 10 5 L 0 10 z" fill="currentColor" />
                </marker>
              </defs>
              {g.edges.map(({ from, to }) => {
                const x1 = from.x + W;
                const y1 = from.y + H / 2;
                const x2 = to.x - 2;
                const y2 = to.y + H / 2;
                const mid = (x1 + x2) / 2;
                const name = `${from.card.title} → ${to.card.title}`;
                const met = from.card.disposition === "merged" || to.card.state !== "backlog";
                return (
                  // biome-ignore lint/a11y/noInteractiveElementToNoninteractiveRole: one edge of the drawing, named for screen readers
                  <g key={`${from.card.id}-${to.card.id}`} role="img" aria-label={name} data-testid="graph-edge">
                    <title>{name}</title>
                    <circle cx={x1} cy={y1} r={3} fill="currentColor" />
                    <path
                      d={`M ${x1} ${y1} C ${mid} ${y1}, ${mid} ${y2}, ${x2} ${y2}`}
                      fill="none"
                      stroke="currentColor"
                      strokeWidth={1.5}
                      strokeDasharray={met ? undefined : "5 4"}
                      markerEnd="url(#dep-arrow)"
                    />
                  </g>
                );
              })}
            </svg>
            <ul aria-label="Tasks">
              {g.nodes.map(({ card, x, y }) => (
                <li key={card.id} className="absolute" style={{ left: x, top: y, width: W, height: H }}>
                  <Link
                    href={`/tasks/${card.id}`}
                    prefetch={false}
                    aria-label={card.title}
                    aria-describedby={`node-${card.id}-state`}
                    className="flex h-full flex-col justify-center gap-1 rounded-md border border-line bg-canvas px-2.5 py-1.5 shadow-[0_1px_0_rgba(31,35,40,0.04)] hover:border-accent"
                  >
                    <span className="truncate text-sm font-semibold leading-5" title={card.title}>
                      {card.title}
                    </span>
                    <span id={`node-${card.id}-state`} className="flex items-center gap-2 text-[11px] text-fg-muted">
                      <StateBadge state={card.state} disposition={card.disposition} size="sm" />
                      {card.waiting && (
                        <span className="truncate">{card.waiting.startsWith("Blocked") ? "blocked" : "waiting"}</span>
                      )}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
    </section>
  );
}
