"use client";
// "New task": project, agent profile, title, the contract (objective required; constraints and
// acceptance criteria edited as rows; expected output format), label, context and a base ref with
// a branch/commit picker, and the tasks it depends on with when a dependency counts as met. "Start
// task" starts it (with an unmet dependency it waits in the backlog and starts by itself), "Save
// to backlog" keeps it as a Backlog card.
// The server validates: each error is shown next to its field (zod issue paths in
// details.issues, or the detail it names); a refused start leaves nothing behind.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { useApi } from "../lib/api";
import { errorOf, issuesOf, type YardErrorData } from "../lib/trpc";
import { useToast } from "./Toasts";
import { Alert, Button, inputClass, Modal } from "./ui";

type Field =
  | "projectId"
  | "agent"
  | "title"
  | "objective"
  | "constraints"
  | "acceptanceCriteria"
  | "outputFormat"
  | "label"
  | "contextId"
  | "baseRef"
  | "dependsOn"
  | "planner"
  | "reviewer"
  | "form";

/** Which field each server error is about. */
export function fieldErrors(e: YardErrorData): Partial<Record<Field, string>> & { rows?: Record<string, string> } {
  const out: Partial<Record<Field, string>> & { rows?: Record<string, string> } = {};
  const issues = issuesOf(e);
  const known: Field[] = [
    "projectId",
    "agent",
    "title",
    "objective",
    "constraints",
    "acceptanceCriteria",
    "outputFormat",
    "label",
    "contextId",
    "baseRef",
    "dependsOn",
    "planner",
    "reviewer",
  ];
  for (const [p, msg] of Object.entries(issues)) {
    const head = p.split(".")[0] as Field;
    if (known.includes(head)) {
      if ((head === "constraints" || head === "acceptanceCriteria") && p.includes(".")) (out.rows ??= {})[p] = msg;
      out[head] ??= msg;
    } else out.form ??= p ? `${p}: ${msg}` : msg;
  }
  if (Object.keys(issues).length) return out;
  const d = e.details ?? {};
  if ("ref" in d || "baseRef" in d) out.baseRef = e.message;
  else if ("planner" in d) out.planner = e.message;
  else if ("reviewer" in d) out.reviewer = e.message;
  else if (e.code === "NOT_FOUND" && /agent profile/i.test(e.message)) out.agent = e.message;
  else if (e.code === "NOT_FOUND" && /project/i.test(e.message)) out.projectId = e.message;
  else if ("contextId" in d) out.contextId = e.message;
  else if ("taskId" in d || "cycle" in d) out.dependsOn = e.message;
  else out.form = e.message;
  return out;
}

const blank = {
  projectId: "",
  agent: "",
  title: "",
  objective: "",
  constraints: [""],
  acceptanceCriteria: [""],
  outputFormat: "",
  label: "",
  contextId: "",
  baseRef: "",
  dependsOn: [] as string[],
  startWhen: "merged" as "merged" | "completed",
  needsPlan: false,
  planner: "",
  reviewer: "",
};

export function NewTaskDialog({
  open,
  projectId,
  onClose,
}: {
  open: boolean;
  projectId: string | null;
  onClose: () => void;
}) {
  const api = useApi();
  const { trpc } = api;
  const router = useRouter();
  const qc = useQueryClient();
  const toast = useToast();
  const projects = useQuery({ ...trpc.projects.list.queryOptions(), enabled: open });
  const agents = useQuery({ ...trpc.agents.list.queryOptions(), enabled: open });
  const [f, setF] = useState(blank);
  const [errors, setErrors] = useState<ReturnType<typeof fieldErrors>>({});
  const [mode, setMode] = useState<"start" | "backlog">("start");

  useEffect(() => {
    if (!open) return;
    setErrors({});
    setF((s) => ({ ...s, projectId: projectId ?? s.projectId }));
  }, [open, projectId]);
  // Defaults once the lists are there: the board's project, the demo agent (or the first worker).
  useEffect(() => {
    if (!open) return;
    setF((s) => ({
      ...s,
      projectId:
        s.projectId && projects.data?.some((p) => p.id === s.projectId) ? s.projectId : (projects.data?.[0]?.id ?? ""),
      agent:
        s.agent ||
        (agents.data?.find((a) => a.id === "demo")?.id ??
          agents.data?.find((a) => a.role === "worker")?.id ??
          agents.data?.[0]?.id ??
          ""),
    }));
  }, [open, projects.data, agents.data]);

  const start = useMutation(
    trpc.tasks.start.mutationOptions({
      onSuccess: (r, vars) => {
        void qc.invalidateQueries(trpc.board.pathFilter());
        void qc.invalidateQueries(trpc.tasks.list.pathFilter());
        // With an unmet dependency the task waits in the backlog (and starts by itself later).
        const backlog = (vars as { backlog?: boolean }).backlog || r.task.state === "backlog";
        const waits = !(vars as { backlog?: boolean }).backlog && r.task.state === "backlog";
        toast({
          tone: "success",
          title: waits ? "Waiting in the backlog" : backlog ? "Saved to backlog" : "Task started",
          body: waits ? `${r.task.title}: starts once its dependencies are ${f.startWhen}` : r.task.title,
          href: `/tasks/${r.task.id}`,
        });
        setF({ ...blank, projectId: f.projectId, agent: f.agent });
        onClose();
        if (!backlog) router.push(`/tasks/${r.task.id}`);
      },
      onError: (e) => setErrors(fieldErrors(errorOf(e))),
    }),
  );

  const submit = (which: "start" | "backlog") => {
    setMode(which);
    setErrors({});
    const rows = (l: string[]) => l.map((x) => x.trim()).filter(Boolean);
    const opt = (s: string) => (s.trim() ? s.trim() : undefined);
    const input = {
      projectId: f.projectId || undefined,
      agent: f.agent || undefined,
      title: opt(f.title),
      objective: f.objective,
      constraints: rows(f.constraints),
      acceptanceCriteria: rows(f.acceptanceCriteria),
      outputFormat: opt(f.outputFormat),
      label: opt(f.label),
      contextId: opt(f.contextId),
      baseRef: opt(f.baseRef),
      ...(f.dependsOn.length ? { dependsOn: f.dependsOn, startWhen: f.startWhen } : {}),
      ...(which === "backlog" ? { backlog: true } : {}),
      ...(f.needsPlan ? { needsPlan: true, planner: f.planner || undefined } : {}),
      reviewer: f.reviewer || undefined,
    };
    if (!f.objective.trim()) {
      setErrors({ objective: "The contract needs an objective." });
      document.getElementById("nt-objective")?.focus();
      return;
    }
    start.mutate(input as Parameters<typeof start.mutate>[0]);
  };

  const set = <K extends keyof typeof blank>(k: K, v: (typeof blank)[K]) => setF((s) => ({ ...s, [k]: v }));
  const busy = start.isPending;

  return (
    <Modal open={open} onClose={onClose} title="New task" width="max-w-2xl">
      <form
        aria-label="New task"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit("start");
        }}
        className="flex max-h-[80vh] flex-col"
      >
        <div className="flex flex-col gap-4 overflow-y-auto px-4 py-4">
          {errors.form && <Alert title={mode === "backlog" ? "Not saved" : "Not started"}>{errors.form}</Alert>}
          <div className="grid grid-cols-2 gap-3">
            <FieldBox id="nt-project" label="Project" error={errors.projectId}>
              <select
                id="nt-project"
                value={f.projectId}
                onChange={(e) => set("projectId", e.target.value)}
                aria-invalid={!!errors.projectId}
                aria-describedby={errors.projectId ? "nt-project-err" : undefined}
                className={inputClass}
              >
                {projects.isPending && <option value="">Loading…</option>}
                {projects.data?.length === 0 && <option value="">No projects: add one first</option>}
                {projects.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </select>
            </FieldBox>
            <FieldBox id="nt-agent" label="Agent profile" error={errors.agent}>
              <select
                id="nt-agent"
                value={f.agent}
                onChange={(e) => set("agent", e.target.value)}
                aria-invalid={!!errors.agent}
                aria-describedby={errors.agent ? "nt-agent-err" : undefined}
                className={inputClass}
              >
                {agents.isPending && <option value="">Loading…</option>}
                <ProfileOptions profiles={agents.data} />
              </select>
            </FieldBox>
          </div>
          <FieldBox
            id="nt-title"
            label="Title"
            hint="Optional: defaults to the objective's first line."
            error={errors.title}
          >
            <input
              id="nt-title"
              value={f.title}
              onChange={(e) => set("title", e.target.value)}
              aria-invalid={!!errors.title}
              aria-describedby={errors.title ? "nt-title-err" : "nt-title-hint"}
              className={inputClass}
              maxLength={200}
            />
          </FieldBox>
          <FieldBox
            id="nt-objective"
            label="Objective"
            required
            error={errors.objective}
            hint="What the agent should do. Sent verbatim as the start of its prompt."
          >
            <textarea
              id="nt-objective"
              required
              rows={4}
              value={f.objective}
              onChange={(e) => set("objective", e.target.value)}
              aria-invalid={!!errors.objective}
              aria-describedby={errors.objective ? "nt-objective-err" : "nt-objective-hint"}
              className={`${inputClass} font-mono text-[13px]`}
            />
          </FieldBox>
          <RowsEditor
            id="nt-constraints"
            label="Constraints"
            singular="constraint"
            rows={f.constraints}
            onChange={(r) => set("constraints", r)}
            error={errors.constraints}
            rowErrors={errors.rows}
            path="constraints"
          />
          <RowsEditor
            id="nt-accept"
            label="Acceptance criteria"
            singular="criterion"
            rows={f.acceptanceCriteria}
            onChange={(r) => set("acceptanceCriteria", r)}
            error={errors.acceptanceCriteria}
            rowErrors={errors.rows}
            path="acceptanceCriteria"
          />
          <FieldBox id="nt-output" label="Expected output format" error={errors.outputFormat}>
            <textarea
              id="nt-output"
              rows={2}
              value={f.outputFormat}
              onChange={(e) => set("outputFormat", e.target.value)}
              aria-invalid={!!errors.outputFormat}
              aria-describedby={errors.outputFormat ? "nt-output-err" : undefined}
              className={inputClass}
            />
          </FieldBox>
          <div className="grid grid-cols-3 gap-3">
            <FieldBox id="nt-label" label="Label" error={errors.label}>
              <input
                id="nt-label"
                value={f.label}
                onChange={(e) => set("label", e.target.value)}
                aria-invalid={!!errors.label}
                aria-describedby={errors.label ? "nt-label-err" : undefined}
                className={inputClass}
                maxLength={80}
              />
            </FieldBox>
            <FieldBox id="nt-context" label="Context" error={errors.contextId}>
              <input
                id="nt-context"
                value={f.contextId}
                onChange={(e) => set("contextId", e.target.value)}
                aria-invalid={!!errors.contextId}
                aria-describedby={errors.contextId ? "nt-context-err" : undefined}
                className={inputClass}
                placeholder="batch id"
              />
            </FieldBox>
            <FieldBox id="nt-base" label="Base ref" error={errors.baseRef} hint="Default: the repository's HEAD.">
              <RefPicker
                id="nt-base"
                projectId={f.projectId}
                value={f.baseRef}
                onChange={(v) => set("baseRef", v)}
                invalid={!!errors.baseRef}
              />
            </FieldBox>
          </div>
          <div className="grid grid-cols-3 items-start gap-3">
            <div className="flex flex-col gap-1">
              <span className="text-sm font-semibold">Planning</span>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={f.needsPlan}
                  onChange={(e) => set("needsPlan", e.target.checked)}
                  aria-describedby="nt-plan-hint"
                />
                Plan first
              </label>
              <span id="nt-plan-hint" className="text-xs text-fg-muted">
                A planner writes a plan you review; approved, it becomes subtasks.
              </span>
            </div>
            <FieldBox id="nt-planner" label="Planner" error={errors.planner} hint="Default: the project's planner.">
              <select
                id="nt-planner"
                value={f.planner}
                disabled={!f.needsPlan}
                onChange={(e) => set("planner", e.target.value)}
                aria-invalid={!!errors.planner}
                aria-describedby={errors.planner ? "nt-planner-err" : "nt-planner-hint"}
                className={`${inputClass} disabled:opacity-60`}
              >
                <option value="">The project’s planner</option>
                {agents.data
                  ?.filter((a) => a.role === "planner")
                  .map((a) => (
                    <option key={a.id} value={a.id}>
                      {a.name}
                    </option>
                  ))}
              </select>
            </FieldBox>
            <FieldBox
              id="nt-reviewer"
              label="Reviewer"
              error={errors.reviewer}
              hint="An agent reviews each round first. Default: the project's."
            >
              <select
                id="nt-reviewer"
                value={f.reviewer}
                onChange={(e) => set("reviewer", e.target.value)}
                aria-invalid={!!errors.reviewer}
                aria-describedby={errors.reviewer ? "nt-reviewer-err" : "nt-reviewer-hint"}
                className={inputClass}
              >
                <option value="">The project’s reviewer</option>
                <ProfileOptions profiles={agents.data} first="reviewer" />
              </select>
            </FieldBox>
          </div>
          <DependsOnPicker
            open={open}
            projectId={f.projectId}
            value={f.dependsOn}
            onChange={(v) => set("dependsOn", v)}
            startWhen={f.startWhen}
            onStartWhen={(v) => set("startWhen", v)}
            error={errors.dependsOn}
          />
        </div>
        <div className="flex items-center justify-end gap-2 border-t border-line bg-canvas-subtle px-4 py-3">
          <Button onClick={onClose}>Cancel</Button>
          <Button
            onClick={() => submit("backlog")}
            disabled={busy || f.needsPlan}
            title={f.needsPlan ? "A planned task starts its planner now: it cannot wait in the backlog" : undefined}
          >
            {busy && mode === "backlog" ? "Saving…" : "Save to backlog"}
          </Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy && mode === "start" ? "Starting…" : "Start task"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

/** "Depends on": the project's tasks as checkboxes (by title), and when a dependency counts as met. */
function DependsOnPicker({
  open,
  projectId,
  value,
  onChange,
  startWhen,
  onStartWhen,
  error,
}: {
  open: boolean;
  projectId: string;
  value: string[];
  onChange: (v: string[]) => void;
  startWhen: "merged" | "completed";
  onStartWhen: (v: "merged" | "completed") => void;
  error?: string;
}) {
  const { trpc } = useApi();
  const list = useQuery({ ...trpc.tasks.list.queryOptions({ projectId }), enabled: open && !!projectId });
  const tasks = (list.data ?? []).filter((t) => t.disposition !== "discarded" && t.state !== "canceled");
  // A project change drops picks from the other project.
  useEffect(() => {
    if (list.data && value.some((id) => !list.data.some((t) => t.id === id)))
      onChange(value.filter((id) => list.data.some((t) => t.id === id)));
  }, [list.data, value, onChange]);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] gap-3">
      <fieldset aria-describedby={error ? "nt-deps-err" : "nt-deps-hint"} className="flex min-w-0 flex-col gap-1">
        <legend className="mb-1 text-sm font-semibold">Depends on</legend>
        {list.isPending && projectId ? (
          <span className="text-xs text-fg-muted">Loading…</span>
        ) : tasks.length === 0 ? (
          <span className="text-xs text-fg-muted">No other task in this project yet.</span>
        ) : (
          <div className="flex max-h-32 flex-col overflow-y-auto rounded-md border border-line bg-canvas px-2 py-1">
            {tasks.map((t) => (
              <div key={t.id} className="flex items-center gap-2 py-0.5 text-sm">
                <input
                  type="checkbox"
                  id={`nt-dep-${t.id}`}
                  checked={value.includes(t.id)}
                  onChange={(e) => onChange(e.target.checked ? [...value, t.id] : value.filter((x) => x !== t.id))}
                />
                <label htmlFor={`nt-dep-${t.id}`} className="min-w-0 flex-1 truncate">
                  {t.title}
                </label>
                <span className="shrink-0 text-[11px] text-fg-subtle">
                  {t.disposition ?? t.state.replace(/_/g, " ")}
                </span>
              </div>
            ))}
          </div>
        )}
        {error ? (
          <span id="nt-deps-err" role="alert" className="text-xs text-danger">
            {error}
          </span>
        ) : (
          <span id="nt-deps-hint" className="text-xs text-fg-muted">
            With any not yet met, the task waits in the backlog and starts by itself.
          </span>
        )}
      </fieldset>
      <fieldset className="flex flex-col gap-1" disabled={value.length === 0}>
        <legend className="mb-1 text-sm font-semibold">Start when</legend>
        {(["merged", "completed"] as const).map((w) => (
          <label key={w} className="flex items-center gap-2 text-sm has-[:disabled]:opacity-60">
            <input
              type="radio"
              name="nt-start-when"
              value={w}
              checked={startWhen === w}
              onChange={() => onStartWhen(w)}
            />
            {w === "merged" ? "merged" : "completed"}
          </label>
        ))}
        <span className="max-w-44 text-xs text-fg-muted">
          {startWhen === "merged" ? "Its base then has their work." : "Before review or merge."}
        </span>
      </fieldset>
    </div>
  );
}

/** An <option> per agent profile, "name (role)"; with `first`, the profiles of that role lead. */
function ProfileOptions({
  profiles,
  first,
}: {
  profiles: Array<{ id: string; name: string; role: string }> | undefined;
  first?: string;
}) {
  const ordered = first
    ? [...(profiles ?? []).filter((a) => a.role === first), ...(profiles ?? []).filter((a) => a.role !== first)]
    : (profiles ?? []);
  return ordered.map((a) => (
    <option key={a.id} value={a.id}>
      {a.name} ({a.role})
    </option>
  ));
}

function FieldBox({
  id,
  label,
  hint,
  error,
  required,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
        {required && (
          <span aria-hidden className="ml-0.5 text-danger">
            *
          </span>
        )}
      </label>
      {children}
      {error ? (
        <span id={`${id}-err`} role="alert" className="text-xs text-danger">
          {error}
        </span>
      ) : hint ? (
        <span id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** A list edited as rows: one input each, add and remove buttons. */
function RowsEditor({
  id,
  label,
  singular,
  rows,
  onChange,
  error,
  rowErrors,
  path,
}: {
  id: string;
  label: string;
  singular: string;
  rows: string[];
  onChange: (r: string[]) => void;
  error?: string;
  rowErrors?: Record<string, string>;
  path: string;
}) {
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const focusNext = useRef<number | null>(null);
  useEffect(() => {
    if (focusNext.current !== null) refs.current[focusNext.current]?.focus();
    focusNext.current = null;
  });
  // Server row indexes count non-empty rows only (the form drops blank ones).
  const indexOf = useMemo(() => {
    const map: number[] = [];
    let k = 0;
    for (const [i, r] of rows.entries()) map[i] = r.trim() ? k++ : -1;
    return map;
  }, [rows]);
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? `${id}-err` : undefined}>
      <legend className="mb-1 text-sm font-semibold">{label}</legend>
      {rows.map((r, i) => {
        const err = indexOf[i]! >= 0 ? rowErrors?.[`${path}.${indexOf[i]}`] : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place and have no identity but their position
          <div key={i} className="flex flex-col gap-0.5">
            <div className="flex items-center gap-2">
              <input
                ref={(el) => {
                  refs.current[i] = el;
                }}
                aria-label={`${label} ${i + 1}`}
                value={r}
                aria-invalid={!!err}
                onChange={(e) => onChange(rows.map((x, j) => (j === i ? e.target.value : x)))}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    focusNext.current = i + 1;
                    onChange([...rows.slice(0, i + 1), "", ...rows.slice(i + 1)]);
                  } else if (e.key === "Backspace" && r === "" && rows.length > 1) {
                    e.preventDefault();
                    focusNext.current = Math.max(0, i - 1);
                    onChange(rows.filter((_, j) => j !== i));
                  }
                }}
                className={inputClass}
              />
              <Button
                variant="invisible"
                size="sm"
                aria-label={`Remove ${singular} ${i + 1}`}
                onClick={() => onChange(rows.length > 1 ? rows.filter((_, j) => j !== i) : [""])}
              >
                ×
              </Button>
            </div>
            {err && (
              <span role="alert" className="text-xs text-danger">
                {err}
              </span>
            )}
          </div>
        );
      })}
      <div>
        <Button
          variant="invisible"
          size="sm"
          onClick={() => {
            focusNext.current = rows.length;
            onChange([...rows, ""]);
          }}
        >
          + Add {singular}
        </Button>
      </div>
      {error && (
        <span id={`${id}-err`} role="alert" className="text-xs text-danger">
          {error}
        </span>
      )}
    </fieldset>
  );
}

/** A text input for a ref with a picker of the project's branches and recent commits (projects.refs). */
function RefPicker({
  id,
  projectId,
  value,
  onChange,
  invalid,
}: {
  id: string;
  projectId: string;
  value: string;
  onChange: (v: string) => void;
  invalid: boolean;
}) {
  const api = useApi();
  const [open, setOpen] = useState(false);
  // Opening the picker lists everything; typing while it is open narrows the list.
  const [typed, setTyped] = useState<string | null>(null);
  const [query, setQuery] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setQuery(typed ?? ""), 200);
    return () => clearTimeout(t);
  }, [typed]);
  const refs = useQuery({
    ...api.projects.refs.queryOptions({ id: projectId, query: query || undefined }),
    enabled: open && !!projectId,
    retry: false,
  });
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const onDown = (e: MouseEvent) => !box.current?.contains(e.target as Node) && setOpen(false);
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [open]);
  const pick = (v: string) => {
    onChange(v);
    setOpen(false);
    document.getElementById(id)?.focus();
  };
  return (
    <div ref={box} className="relative flex gap-1">
      <input
        id={id}
        value={value}
        onChange={(e) => {
          onChange(e.target.value);
          if (open) setTyped(e.target.value);
        }}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-err` : `${id}-hint`}
        placeholder="HEAD"
        className={`${inputClass} font-mono`}
        onKeyDown={(e) => e.key === "ArrowDown" && setOpen(true)}
      />
      <Button
        aria-label="Pick a branch or commit"
        aria-expanded={open}
        onClick={() => {
          setTyped(null);
          setOpen((o) => !o);
        }}
        className="w-8 px-0"
      >
        ▾
      </Button>
      {open && (
        <div
          role="listbox"
          aria-label="Branches and commits"
          className="absolute right-0 top-9 z-50 max-h-72 w-80 overflow-y-auto rounded-lg border border-line bg-overlay py-1 text-sm shadow-xl"
        >
          {refs.isPending ? (
            <div className="px-3 py-2 text-fg-muted">Loading…</div>
          ) : refs.isError ? (
            <div className="px-3 py-2 text-fg-muted">
              No list from the server ({errorOf(refs.error).message}); type a branch, tag or commit.
            </div>
          ) : (
            <>
              {refs.data.branches.length === 0 && refs.data.commits.length === 0 && (
                <div className="px-3 py-2 text-fg-muted">No branch or commit matches “{query}”.</div>
              )}
              <div className="px-3 pb-1 pt-1.5 text-xs font-semibold text-fg-muted">Branches</div>
              {refs.data.branches.map((b) => (
                <button
                  key={b.name}
                  type="button"
                  role="option"
                  aria-selected={value === b.name}
                  onClick={() => pick(b.name)}
                  className="flex w-full items-center gap-2 px-3 py-1 text-left hover:bg-canvas-subtle"
                >
                  <span className="font-mono">{b.name}</span>
                  {b.current && (
                    <span className="rounded-full border border-line px-1.5 text-[10px] text-fg-muted">current</span>
                  )}
                  <span className="ml-auto font-mono text-xs text-fg-subtle">{b.sha.slice(0, 7)}</span>
                </button>
              ))}
              <div className="px-3 pb-1 pt-2 text-xs font-semibold text-fg-muted">Recent commits</div>
              {refs.data.commits.map((c) => (
                <button
                  key={c.sha}
                  type="button"
                  role="option"
                  aria-selected={value === c.sha}
                  onClick={() => pick(c.sha)}
                  className="flex w-full items-center gap-2 px-3 py-1 text-left hover:bg-canvas-subtle"
                >
                  <span className="font-mono text-xs text-accent">{c.sha.slice(0, 7)}</span>
                  <span className="truncate">{c.subject}</span>
                </button>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}
