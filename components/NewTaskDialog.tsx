"use client";
// "New task": project, agent profile, "Use template" (a saved contract of the project fills the
// form), title, the contract (objective required; constraints and acceptance criteria edited as
// rows; expected output format), label, context and a base ref with a branch/commit picker, and
// the tasks it depends on with when a dependency counts as met. "Start task" starts it (with an
// unmet dependency it waits in the backlog and starts by itself), "Save to backlog" keeps it as a
// Backlog card.
// The server validates: each error is shown next to its field (new-task/fields.ts); a refused
// start leaves nothing behind. The form's parts live in components/new-task/.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { useApi } from "../lib/api";
import { errorOf } from "../lib/trpc";
import { DependsOnPicker } from "./new-task/DependsOnPicker";
import { blank, fieldErrors } from "./new-task/fields";
import { FieldBox, ProfileOptions, RowsEditor, SelectField } from "./new-task/FormParts";
import { RefPicker } from "./new-task/RefPicker";
import { TemplatePicker } from "./new-task/TemplatePicker";
import { useToast } from "./Toasts";
import { Alert, Button, inputClass, Modal } from "./ui";

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
  // Runners are an admin's: for anyone else the list is refused and the choice not shown.
  const runners = useQuery({ ...trpc.runners.list.queryOptions(), enabled: open, retry: false });
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
      // Not cleared while the list loads: the board's project may have come first.
      projectId:
        !projects.data || (s.projectId && projects.data.some((p) => p.id === s.projectId))
          ? s.projectId
          : (projects.data[0]?.id ?? ""),
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

  // The project the select shows is the one the task goes to (a select whose value is not among
  // its options shows its first option).
  const shownProjectId =
    f.projectId && projects.data?.some((p) => p.id === f.projectId)
      ? f.projectId
      : (projects.data?.[0]?.id ?? f.projectId);
  const submit = (which: "start" | "backlog") => {
    setMode(which);
    setErrors({});
    const rows = (l: string[]) => l.map((x) => x.trim()).filter(Boolean);
    const opt = (s: string) => (s.trim() ? s.trim() : undefined);
    const input = {
      projectId: shownProjectId || undefined,
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
      runner: f.runner || undefined,
    };
    if (!shownProjectId) {
      // Nothing goes out without the project the select shows (still loading, or none added yet).
      setErrors({ projectId: projects.isPending ? "The projects are still loading." : "Add a project first." });
      return;
    }
    if (!f.objective.trim()) {
      setErrors({ objective: "The contract needs an objective." });
      document.getElementById("nt-objective")?.focus();
      return;
    }
    start.mutate(input as Parameters<typeof start.mutate>[0]);
  };

  const set = <K extends keyof typeof blank>(k: K, v: (typeof blank)[K]) => setF((s) => ({ ...s, [k]: v }));
  const busy = start.isPending;
  // The buttons wait for the project list: a task needs the project the select shows.
  const noProject = !shownProjectId;

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
            <SelectField
              id="nt-project"
              label="Project"
              error={errors.projectId}
              value={shownProjectId}
              onChange={(v) => set("projectId", v)}
            >
              {projects.isPending && <option value="">Loading…</option>}
              {projects.data?.length === 0 && <option value="">No projects: add one first</option>}
              {projects.data?.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </SelectField>
            <SelectField
              id="nt-agent"
              label="Agent profile"
              error={errors.agent}
              value={f.agent}
              onChange={(v) => set("agent", v)}
            >
              {agents.isPending && <option value="">Loading…</option>}
              <ProfileOptions profiles={agents.data} />
            </SelectField>
          </div>
          <TemplatePicker
            open={open}
            projectId={shownProjectId}
            onPick={(t) =>
              setF((s) => ({
                ...s,
                title: t.title ?? "",
                objective: t.objective,
                constraints: t.constraints.length ? t.constraints : [""],
                acceptanceCriteria: t.acceptanceCriteria.length ? t.acceptanceCriteria : [""],
                outputFormat: t.outputFormat ?? "",
                label: t.label ?? "",
                agent: t.agent && agents.data?.some((a) => a.id === t.agent) ? t.agent : s.agent,
              }))
            }
          />
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
                projectId={shownProjectId}
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
            <SelectField
              id="nt-planner"
              label="Planner"
              error={errors.planner}
              hint="Default: the project's planner."
              value={f.planner}
              disabled={!f.needsPlan}
              onChange={(v) => set("planner", v)}
            >
              <option value="">The project’s planner</option>
              {agents.data
                ?.filter((a) => a.role === "planner")
                .map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
            </SelectField>
            <SelectField
              id="nt-reviewer"
              label="Reviewer"
              error={errors.reviewer}
              hint="An agent reviews each round first. Default: the project's."
              value={f.reviewer}
              onChange={(v) => set("reviewer", v)}
            >
              <option value="">The project’s reviewer</option>
              <ProfileOptions profiles={agents.data} first="reviewer" />
            </SelectField>
            {runners.data && runners.data.length > 0 && (
              <SelectField
                id="nt-runner"
                label="Runs on"
                error={errors.runner}
                hint="Another machine over SSH. Default: the project's runner, else this machine."
                value={f.runner}
                onChange={(v) => set("runner", v)}
              >
                <option value="">The project’s default</option>
                {runners.data.map((r) => (
                  <option key={r.name} value={r.name}>
                    {r.name} ({r.user}@{r.host})
                  </option>
                ))}
              </SelectField>
            )}
          </div>
          <DependsOnPicker
            open={open}
            projectId={shownProjectId}
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
            disabled={busy || noProject || f.needsPlan}
            title={f.needsPlan ? "A planned task starts its planner now: it cannot wait in the backlog" : undefined}
          >
            {busy && mode === "backlog" ? "Saving…" : "Save to backlog"}
          </Button>
          <Button type="submit" variant="primary" disabled={busy || noProject}>
            {busy && mode === "start" ? "Starting…" : "Start task"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
