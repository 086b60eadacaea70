"use client";
// "Add project": a modal with a path (and optional name); the server validates the path and
// its error is shown inline under the field.
import { useEffect, useRef, useState } from "react";
import { errorOf, trpc } from "../lib/trpc";

export interface AddedProject {
  id: string;
  name: string;
  path: string;
}

export function AddProjectDialog({ open, onClose, onAdded }: { open: boolean; onClose: () => void; onAdded: (p: AddedProject) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [path, setPath] = useState("");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      setError(null);
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const project = await trpc.projects.add.mutate({ path, name: name.trim() || undefined });
      setPath("");
      setName("");
      onAdded(project);
      onClose();
    } catch (err) {
      setError(errorOf(err).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="add-project-title"
      className="m-auto w-full max-w-lg rounded-lg border border-gray-300 bg-white p-0 text-gray-900 shadow-xl backdrop:bg-black/40 dark:border-gray-700 dark:bg-[#161b22] dark:text-gray-100"
    >
      <form onSubmit={submit} className="flex flex-col gap-4 p-5">
        <h2 id="add-project-title" className="text-lg font-semibold">
          Add project
        </h2>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">Repository path</span>
          <input
            name="path"
            autoFocus
            required
            value={path}
            onChange={(e) => setPath(e.target.value)}
            placeholder="/home/you/src/my-repo"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "add-project-error" : "add-project-help"}
            className="rounded-md border border-gray-300 bg-white px-3 py-2 font-mono text-sm focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-gray-600 dark:bg-[#0d1117]"
          />
          {error ? (
            <span id="add-project-error" role="alert" className="text-sm text-red-600 dark:text-red-400">
              {error}
            </span>
          ) : (
            <span id="add-project-help" className="text-xs text-gray-500 dark:text-gray-400">
              An absolute path to a local git repository (a work tree, not a bare repository).
            </span>
          )}
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-medium">
            Name <span className="font-normal text-gray-500">(optional)</span>
          </span>
          <input
            name="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="defaults to the folder name"
            className="rounded-md border border-gray-300 bg-white px-3 py-2 text-sm focus:border-blue-500 focus:outline-none focus:ring-2 focus:ring-blue-500/40 dark:border-gray-600 dark:bg-[#0d1117]"
          />
        </label>
        <div className="flex justify-end gap-2">
          <button type="button" onClick={onClose} className="rounded-md border border-gray-300 px-3 py-1.5 text-sm hover:bg-gray-100 dark:border-gray-600 dark:hover:bg-gray-800">
            Cancel
          </button>
          <button
            type="submit"
            disabled={busy || !path.trim()}
            className="rounded-md bg-green-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-green-800 disabled:opacity-50"
          >
            {busy ? "Adding…" : "Add project"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
