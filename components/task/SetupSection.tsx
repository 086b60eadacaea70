"use client";
// The task page's "Environment" section: its repository config as the task started with it
// (.switchyard.json at the base commit, the project's override), setup's progress while it runs
// (its output is in the Terminal tab) or why it failed (the output's tail), the task's ports with a
// Preview link for each one something listens on (asked of the server every few seconds while the
// page is open), and what teardown did at the finish.
import { useQuery } from "@tanstack/react-query";
import type { Task } from "../../lib/types";
import { useTRPC } from "../../lib/trpc";
import { Row } from "./Details";
import { Section } from "./Section";

type Evidence = { stage?: string; reason?: string; step?: number; total?: number; command?: string | null };

const step = (e: Evidence) => `setup ${e.step ?? "?"}/${e.total ?? "?"}${e.command ? `: ${e.command}` : ""}`;

export function SetupSection({ task: t }: { task: Task }) {
  const trpc = useTRPC();
  const e = (t.evidence ?? {}) as Evidence & { exitCode?: number | null; tail?: string };
  const settingUp = t.state === "pending" && e.stage === "setup";
  const failed = t.state === "failed" && e.reason === "setup_failed";
  const s = t.setup;
  const watchPorts = Boolean(s?.ports.length) && !s?.portsReleased;
  const ports = useQuery({
    ...trpc.tasks.ports.queryOptions({ id: t.id }),
    enabled: watchPorts,
    refetchInterval: watchPorts ? 3000 : false,
  });
  if (!s && !settingUp && !failed) return null;
  const from = (f: "setup" | "teardown" | "copy" | "link" | "ports") =>
    s?.config.sources[f] === "project" ? " (project)" : s?.config.sources[f] === "file" ? " (.switchyard.json)" : "";
  return (
    <Section title="Environment" id="sec-environment">
      {settingUp && (
        <p role="status" className="mb-2 text-xs font-semibold text-attention">
          Setting up… <span className="font-mono font-normal">{step(e)}</span>
          <span className="block font-normal text-fg-muted">The agent starts when setup is done (Terminal tab).</span>
        </p>
      )}
      {failed && (
        <div role="alert" className="mb-2 text-xs">
          <p className="font-semibold text-danger">
            Setup failed: <span className="font-mono">{step(e)}</span> exited with {String(e.exitCode ?? "?")}; no agent
            started.
          </p>
          {e.tail && (
            <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded border border-line bg-canvas-subtle p-2 font-mono text-[11px]">
              {e.tail}
            </pre>
          )}
        </div>
      )}
      {s && (
        <dl className="grid grid-cols-[5.5rem_1fr] gap-x-2 gap-y-1 text-xs">
          {s.ports.length > 0 && (
            <Row name="Ports">
              <ul aria-label="Ports" className="flex flex-wrap gap-x-3 gap-y-1">
                {(ports.data?.ports ?? s.ports.map((port) => ({ port, listening: false, url: "" }))).map((p) => (
                  <li key={p.port} className="font-mono">
                    {p.port}
                    {p.listening && !s.portsReleased && (
                      <a
                        href={p.url}
                        target="_blank"
                        rel="noreferrer"
                        aria-label={`Preview port ${p.port}`}
                        className="ml-1.5 font-sans text-accent hover:underline"
                      >
                        Preview ↗
                      </a>
                    )}
                  </li>
                ))}
                {s.portsReleased && <li className="text-fg-muted">released</li>}
              </ul>
            </Row>
          )}
          {s.config.setup.length > 0 && (
            <Row name={`Setup${from("setup")}`}>
              <Commands list={s.config.setup} />
            </Row>
          )}
          {s.config.teardown.length > 0 && (
            <Row name={`Teardown${from("teardown")}`}>
              <Commands list={s.config.teardown} />
            </Row>
          )}
          {s.config.copy.length > 0 && <Row name={`Copy${from("copy")}`}>{s.config.copy.join(", ")}</Row>}
          {s.config.link.length > 0 && <Row name={`Link${from("link")}`}>{s.config.link.join(", ")}</Row>}
          {s.teardown && (
            <Row name="Teardown ran">
              <span className={s.teardown.ok ? "text-success" : "text-danger"}>
                {s.teardown.skipped ?? (s.teardown.ok ? "ok" : "failed (the finish went on)")}
              </span>
              {s.teardown.tail && (
                <details className="mt-1">
                  <summary className="cursor-pointer text-fg-muted">Output</summary>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap font-mono text-[11px]">
                    {s.teardown.tail}
                  </pre>
                </details>
              )}
            </Row>
          )}
        </dl>
      )}
    </Section>
  );
}

function Commands({ list }: { list: string[] }) {
  return (
    <ol className="list-inside list-decimal font-mono text-[11px]">
      {list.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of command lines that may repeat
        <li key={i} className="break-all">
          {c}
        </li>
      ))}
    </ol>
  );
}
