"use client";
// "Add project": a modal with a path (and optional name); the server validates the path and
// its error is shown inline under the field.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Project } from "../lib/types";
import { errorOf, useTRPC } from "../lib/trpc";
import { Button, inputClass, Modal } from "./ui";

export function AddProjectDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (p: Project) => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const [path, setPath] = useState("");
  const [name, setName] = useState("");
  const add = useMutation(
    trpc.projects.add.mutationOptions({
      onSuccess: async (project) => {
        setPath("");
        setName("");
        await qc.invalidateQueries(trpc.projects.list.pathFilter());
        onAdded(project);
        onClose();
      },
    }),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time the dialog opens, not at every render of the mutation
  useEffect(() => {
    if (open) add.reset();
  }, [open]);
  const error = add.error ? errorOf(add.error).message : null;

  return (
    <Modal open={open} onClose={onClose} title="Add project" labelId="add-project-title">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate({ path, name: name.trim() || undefined });
        }}
        className="flex flex-col gap-4 p-4"
      >
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-semibold">Repository path</span>
          <input
            name="path"
            autoFocus
            required
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/you/src/my-repo"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "add-project-error" : "add-project-help"}
            className={`${inputClass} font-mono`}
          />
          {error ? (
            <span id="add-project-error" role="alert" className="text-xs text-danger">
              {error}
            </span>
          ) : (
            <span id="add-project-help" className="text-xs text-fg-muted">
              An absolute path to a local git repository (a work tree, not a bare repository).
            </span>
          )}
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-semibold">
            Name <span className="font-normal text-fg-muted">(optional)</span>
          </span>
          <input
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="defaults to the folder name"
            className={inputClass}
          />
        </label>
        <div className="flex justify-end gap-2">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={add.isPending || !path.trim()}>
            {add.isPending ? "Adding…" : "Add project"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
