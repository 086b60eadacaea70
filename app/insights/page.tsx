"use client";
// /insights: what the board's history says (insights.get, the same numbers as `yard insights`):
// tasks started and merged per day, time from start to merge (median, p90), review rounds per
// finished task, each agent profile's success rate and token use, and how long tasks waited on
// people; filtered by project, agent profile, person and days. Charts are Recharts (SVG, colours
// from the theme's variables, so both themes read); each has its numbers in a table for screen
// readers and the keyboard.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { TopBar } from "../../components/TopBar";
import { Alert, inputClass, Spinner } from "../../components/ui";
import { preciseSpan } from "../../lib/duration";
import { errorOf, useTRPC } from "../../lib/trpc";

const DAYS = [7, 14, 30, 90];
const span = (ms: number | null) => (ms === null ? "–" : preciseSpan(ms));
const AXIS = { stroke: "var(--color-fg-muted)", fontSize: 11 };

export default function InsightsPage() {
  const trpc = useTRPC();
  const id = useId();
  const [projectId, setProjectId] = useState("");
  const [agent, setAgent] = useState("");
  const [person, setPerson] = useState("");
  const [days, setDays] = useState(30);
  const projects = useQuery(trpc.projects.list.queryOptions());
  const agents = useQuery(trpc.agents.list.queryOptions());
  const insights = useQuery(
    trpc.insights.get.queryOptions({
      projectId: projectId || undefined,
      agent: agent || undefined,
      person: person.trim() || undefined,
      days,
    }),
  );
  useEffect(() => {
    document.title = "Insights · Switchyard";
  }, []);
  const d = insights.data;
  const select = "rounded-md border border-line bg-canvas px-2 py-1.5 text-sm";

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-4 p-4">
        <h1 className="text-lg font-semibold">Insights</h1>
        <form
          aria-label="Filter the insights"
          className="flex flex-wrap items-end gap-3"
          onSubmit={(e) => e.preventDefault()}
        >
          <Field label="Project" htmlFor={`${id}-project`}>
            <select
              id={`${id}-project`}
              value={projectId}
              onChange={(e) => setProjectId(e.target.value)}
              className={select}
            >
              <option value="">All projects</option>
              {projects.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Agent" htmlFor={`${id}-agent`}>
            <select id={`${id}-agent`} value={agent} onChange={(e) => setAgent(e.target.value)} className={select}>
              <option value="">All agents</option>
              {agents.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
              <option value="custom">custom command</option>
            </select>
          </Field>
          <Field label="Person" htmlFor={`${id}-person`}>
            <input
              id={`${id}-person`}
              value={person}
              onChange={(e) => setPerson(e.target.value)}
              placeholder="everyone"
              className={inputClass}
            />
          </Field>
          <Field label="Days" htmlFor={`${id}-days`}>
            <select id={`${id}-days`} value={days} onChange={(e) => setDays(Number(e.target.value))} className={select}>
              {DAYS.map((n) => (
                <option key={n} value={n}>
                  Last {n} days
                </option>
              ))}
            </select>
          </Field>
        </form>
        {insights.error && <Alert>{errorOf(insights.error).message}</Alert>}
        {!d && !insights.error && <Spinner />}
        {d && (
          <>
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <Stat name="Started" value={String(d.perDay.reduce((s, x) => s + x.started, 0))} />
              <Stat name="Merged" value={String(d.startToMerge.merged)} />
              <Stat
                name="Start to merge"
                value={`${span(d.startToMerge.medianMs)} median`}
                detail={`p90 ${span(d.startToMerge.p90Ms)}`}
              />
              <Stat
                name="Waited on people"
                value={`${span(d.waitingOnPeople.medianMs)} median`}
                detail={`${d.waitingOnPeople.tasks} task(s), p90 ${span(d.waitingOnPeople.p90Ms)}`}
              />
            </dl>
            <Chart title="Tasks started and merged per day">
              <BarChart data={d.perDay}>
                <CartesianGrid stroke="var(--color-line)" vertical={false} />
                <XAxis dataKey="day" tick={AXIS} tickFormatter={(v: string) => v.slice(5)} />
                <YAxis allowDecimals={false} tick={AXIS} width={32} />
                <Tooltip contentStyle={{ background: "var(--color-canvas)", border: "1px solid var(--color-line)" }} />
                <Legend />
                <Bar
                  dataKey="started"
                  name="Started"
                  fill="var(--color-accent)"
                  maxBarSize={24}
                  isAnimationActive={false}
                />
                <Bar
                  dataKey="merged"
                  name="Merged"
                  fill="var(--color-success)"
                  maxBarSize={24}
                  isAnimationActive={false}
                />
              </BarChart>
            </Chart>
            <DataTable
              caption="Tasks started and merged per day"
              head={["Day", "Started", "Merged"]}
              rows={d.perDay.filter((x) => x.started || x.merged).map((x) => [x.day, x.started, x.merged])}
            />
            <Chart title="Review rounds per finished task">
              <BarChart data={d.rounds.perTask}>
                <CartesianGrid stroke="var(--color-line)" vertical={false} />
                <XAxis dataKey="rounds" tick={AXIS} tickFormatter={(v: number) => `${v} round${v === 1 ? "" : "s"}`} />
                <YAxis allowDecimals={false} tick={AXIS} width={32} />
                <Tooltip contentStyle={{ background: "var(--color-canvas)", border: "1px solid var(--color-line)" }} />
                <Bar
                  dataKey="tasks"
                  name="Tasks"
                  fill="var(--color-accent)"
                  maxBarSize={56}
                  isAnimationActive={false}
                />
              </BarChart>
            </Chart>
            <DataTable
              caption={`Agent profiles (${d.rounds.finished} finished, ${d.rounds.mean === null ? "–" : d.rounds.mean.toFixed(2)} rounds on average)`}
              head={["Agent", "Started", "Finished", "Merged", "Failed", "Success rate", "Tokens"]}
              visible
              rows={d.agents.map((a) => [
                a.agent,
                a.started,
                a.finished,
                a.merged,
                a.failed,
                a.successRate === null ? "–" : `${Math.round(a.successRate * 100)}%`,
                a.tasksWithTokens ? a.tokens.toLocaleString() : "–",
              ])}
            />
          </>
        )}
      </main>
    </div>
  );
}

function Field({ label, htmlFor, children }: { label: string; htmlFor: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={htmlFor} className="text-sm font-semibold">
        {label}
      </label>
      {children}
    </div>
  );
}

function Stat({ name, value, detail }: { name: string; value: string; detail?: string }) {
  return (
    <div className="rounded-md border border-line p-3">
      <dt className="text-xs text-fg-muted">{name}</dt>
      <dd className="text-lg font-semibold">{value}</dd>
      {detail && <dd className="text-xs text-fg-muted">{detail}</dd>}
    </div>
  );
}

function Chart({ title, children }: { title: string; children: React.ReactElement }) {
  return (
    <figure aria-label={title} className="rounded-md border border-line p-3">
      <figcaption className="mb-2 text-sm font-semibold">{title}</figcaption>
      <div aria-hidden className="h-56 w-full">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

function DataTable({
  caption,
  head,
  rows,
  visible,
}: {
  caption: string;
  head: string[];
  rows: Array<Array<string | number>>;
  visible?: boolean;
}) {
  return (
    <table aria-label={caption} className={visible ? "w-full text-sm" : "sr-only"}>
      <caption className={visible ? "mb-1 text-left text-sm font-semibold" : undefined}>{caption}</caption>
      <thead className="text-left text-xs text-fg-muted">
        <tr>
          {head.map((h) => (
            <th key={h} className="py-1 font-medium">
              {h}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={String(r[0])} className="border-t border-line">
            {r.map((c, i) => (
              <td key={head[i]} className="py-1">
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
