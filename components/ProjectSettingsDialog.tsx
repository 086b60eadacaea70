"use client";
// "Project settings": how its tasks land by default (the Merge dialog starts there), and the
// project's override of its repository's `.switchyard.json` (setup, teardown, copy, link, ports for
// every task started in it; each field given replaces the file's), edited as JSON next to the file
// as committed at the checkout's HEAD and what the two make together. The server validates it; its
// error (naming the field) shows under the field.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Project } from "../lib/types";
import { errorOf, useTRPC } from "../lib/trpc";
import { Button, inputClass, Modal } from "./ui";

const pretty = (v: unknown) => (v ? JSON.stringify(v, null, 2) : "");

const STRATEGIES = [
  ["merge", "Create a merge commit"],
  ["squash", "Squash and merge"],
  ["rebase", "Rebase and merge"],
  ["ff", "Fast-forward only"],
] as const;
type Strategy = (typeof STRATEGIES)[number][0];

export function ProjectSettingsDialog({
  project,
  open,
  onClose,
}: {
  project: Project;
  open: boolean;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const config = useQuery({ ...trpc.projects.repoConfig.queryOptions({ id: project.id }), enabled: open });
  const [text, setText] = useState("");
  const [strategy, setStrategy] = useState<Strategy>("merge");
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation(
    trpc.projects.update.mutationOptions({
      onSuccess: async () => {
        await qc.invalidateQueries(trpc.projects.pathFilter());
        onClose();
      },
      onError: (e) => setProblem(errorOf(e).message),
    }),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time the dialog opens
  useEffect(() => {
    if (!open) return;
    setText(pretty(project.repoConfig));
    setStrategy(project.mergeStrategy ?? "merge");
    setProblem(null);
    save.reset();
  }, [open]);

  const submit = () => {
    setProblem(null);
    const mergeStrategy = strategy === "merge" ? null : strategy;
    if (!text.trim()) return save.mutate({ id: project.id, repoConfig: null, mergeStrategy });
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return setProblem(`Not JSON: ${(e as Error).message}`);
    }
    save.mutate({ id: project.id, repoConfig: value as Project["repoConfig"], mergeStrategy });
  };
  const file = config.data?.file;

  return (
    <Modal open={open} onClose={onClose} title={`Project settings: ${project.name}`} width="max-w-2xl">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="flex flex-col gap-4 p-4"
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-semibold">Default merge strategy</span>
          <select
            name="mergeStrategy"
            value={strategy}
            onChange={(e) => setStrategy(e.target.value as Strategy)}
            className={`${inputClass} w-64`}
          >
            {STRATEGIES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <span className="text-xs text-fg-muted">What the Merge dialog starts at for this project's tasks.</span>
        </label>
        <div className="text-sm">
          <div className="font-semibold">.switchyard.json in the repository</div>
          <p className="text-xs text-fg-muted">
            {`As committed at ${file?.commit ? file.commit.slice(0, 12) : "HEAD"}; each task reads it at its own base commit.`}
          </p>
          {file?.error ? (
            <p className="mt-1 text-xs text-danger">{file.error}</p>
          ) : (
            <pre
              data-testid="committed-config"
              className="mt-1 max-h-40 overflow-auto rounded border border-line bg-canvas-subtle p-2 font-mono text-[11px]"
            >
              {config.isPending ? "Loading…" : file?.config ? pretty(file.config) : "(none)"}
            </pre>
          )}
        </div>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-semibold">Override for this project (JSON)</span>
          <textarea
            name="repoConfig"
            rows={8}
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder={'{ "setup": ["npm ci"], "copy": [".env*"], "ports": 1 }'}
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "project-config-error" : "project-config-help"}
            className={`${inputClass} font-mono text-xs`}
          />
          {problem ? (
            <span id="project-config-error" role="alert" className="text-xs text-danger">
              {problem}
            </span>
          ) : (
            <span id="project-config-help" className="text-xs text-fg-muted">
              Fields given here (setup, teardown, copy, link, ports) replace the file's for tasks started from now on;
              empty clears the override.
            </span>
          )}
        </label>
        {config.data?.effective && (
          <div className="text-sm">
            <div className="font-semibold">Tasks start with (saved settings)</div>
            <pre className="mt-1 max-h-40 overflow-auto rounded border border-line bg-canvas-subtle p-2 font-mono text-[11px]">
              {pretty(config.data.effective)}
            </pre>
          </div>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={save.isPending}>
            {save.isPending ? "Saving…" : "Save settings"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
