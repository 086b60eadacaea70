"use client";
// "Remove agent <id>?": the confirmation before agents.remove. A refusal (a running task still
// uses the profile, or it is built in) keeps the dialog open with the server's message.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { errorOf, useTRPC } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, Modal } from "../ui";

export function RemoveProfileDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const remove = useMutation(
    trpc.agents.remove.mutationOptions({
      onSuccess: async (r) => {
        await qc.invalidateQueries(trpc.agents.list.pathFilter());
        toast({ tone: "success", title: `Removed agent ${r.removed}` });
        onClose();
      },
    }),
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh state each time the dialog opens for a profile
  useEffect(() => {
    if (id) remove.reset();
  }, [id]);
  const error = remove.error ? errorOf(remove.error) : null;
  return (
    <Modal open={id !== null} onClose={onClose} title={`Remove agent ${id ?? ""}?`} width="max-w-md">
      <div className="flex flex-col gap-4 p-4 text-sm">
        <p>
          The profile <code className="font-mono font-semibold">{id}</code> and its environment variables are deleted.
          Tasks that already finished keep their history; a task still running with it blocks the removal.
        </p>
        {error && (
          <Alert title={error.code === "CONFLICT" ? "Not removed" : "Could not remove it"}>{error.message}</Alert>
        )}
        <div className="flex justify-end gap-2">
          <Button onClick={onClose} data-autofocus>
            Cancel
          </Button>
          <Button variant="danger" disabled={remove.isPending} onClick={() => id && remove.mutate({ id })}>
            {remove.isPending ? "Removing…" : "Remove"}
          </Button>
        </div>
      </div>
    </Modal>
  );
}
