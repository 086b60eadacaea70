"use client";
// /people (admins): the board's people with their roles, "Add person" (prints their one-time
// invite link), changing a role, a fresh invite link, and removing someone (their sessions,
// tokens and invites stop working at once). The same as `yard user …`.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { TopBar } from "../../components/TopBar";
import { Alert, Button, CopyButton, inputClass, Modal, Spinner, timeAgo } from "../../components/ui";
import { useMe } from "../../lib/people";
import { errorOf, useTRPC, type YardErrorData } from "../../lib/trpc";

const ROLES = ["member", "reviewer", "admin"] as const;
type Role = (typeof ROLES)[number];
const ROLE_HELP: Record<Role, string> = {
  member: "creates, starts and follows up tasks, comments",
  reviewer: "also approves, requests changes, merges, discards and cancels",
  admin: "also projects, agent profiles, people and settings",
};

export default function PeoplePage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const me = useMe();
  const people = useQuery(trpc.people.list.queryOptions(undefined, { enabled: me?.role === "admin" }));
  const [error, setError] = useState<YardErrorData | null>(null);
  const [invite, setInvite] = useState<{ name: string; url: string; expiresAt: string } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries(trpc.people.pathFilter());
  const onError = (e: unknown) => setError(errorOf(e));
  const setRole = useMutation(trpc.people.setRole.mutationOptions({ onSuccess: refresh, onError }));
  const reinvite = useMutation(
    trpc.people.invite.mutationOptions({
      onSuccess: (r, v) => setInvite({ name: v.name, ...r }),
      onError,
    }),
  );
  const remove = useMutation(
    trpc.people.remove.mutationOptions({
      onSuccess: () => {
        setRemoving(null);
        refresh();
      },
      onError: (e) => {
        setRemoving(null);
        onError(e);
      },
    }),
  );
  useEffect(() => {
    document.title = "People · Switchyard";
  }, []);

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-4 p-4">
        <h1 className="text-lg font-semibold">People</h1>
        <p className="max-w-3xl text-sm text-fg-muted">
          Everyone who can open this board. A member {ROLE_HELP.member}; a reviewer {ROLE_HELP.reviewer}; an admin{" "}
          {ROLE_HELP.admin}. Each person signs in with their own one-time invite link; every agent still runs as this
          server&apos;s user.
        </p>
        {me && me.role !== "admin" && <Alert tone="attention">Only an admin manages people.</Alert>}
        {error && (
          <Alert title="Refused" onDismiss={() => setError(null)}>
            {error.message}
          </Alert>
        )}
        {invite && <InviteLink {...invite} onDismiss={() => setInvite(null)} />}
        {me?.role === "admin" && (
          <AddPerson
            onAdded={(name, r) => {
              setInvite({ name, ...r });
              refresh();
            }}
            onError={onError}
          />
        )}
        {people.error && <Alert>{errorOf(people.error).message}</Alert>}
        {me?.role === "admin" && !people.data && !people.error && <Spinner />}
        {people.data && (
          <table className="w-full text-sm" aria-label="People">
            <thead className="text-left text-xs text-fg-muted">
              <tr>
                <th className="py-2 font-medium">Name</th>
                <th className="py-2 font-medium">Role</th>
                <th className="py-2 font-medium">Tokens</th>
                <th className="py-2 font-medium">Added</th>
                <th className="py-2" />
              </tr>
            </thead>
            <tbody>
              {people.data.map((p) => (
                <tr key={p.id} className="border-t border-line">
                  <td className="py-2 font-semibold">{p.name}</td>
                  <td className="py-2">
                    {p.name === "owner" ? (
                      "admin (owner)"
                    ) : (
                      <select
                        aria-label={`Role of ${p.name}`}
                        value={p.role}
                        disabled={setRole.isPending}
                        onChange={(e) => setRole.mutate({ name: p.name, role: e.target.value as Role })}
                        className="rounded-md border border-line bg-canvas px-2 py-1"
                      >
                        {ROLES.map((r) => (
                          <option key={r} value={r}>
                            {r}
                          </option>
                        ))}
                      </select>
                    )}
                  </td>
                  <td className="py-2">{p.tokens}</td>
                  <td className="py-2 text-fg-muted">
                    {timeAgo(p.createdAt)}
                    {p.createdBy ? ` by ${p.createdBy}` : ""}
                  </td>
                  <td className="py-2 text-right">
                    {p.name !== "owner" && (
                      <span className="inline-flex gap-2">
                        <Button size="sm" onClick={() => reinvite.mutate({ name: p.name })}>
                          New invite link
                        </Button>
                        {p.name !== me?.name && (
                          <Button size="sm" variant="outline-danger" onClick={() => setRemoving(p.name)}>
                            Remove {p.name}
                          </Button>
                        )}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </main>
      <Modal open={removing !== null} onClose={() => setRemoving(null)} title={`Remove ${removing ?? ""}`}>
        <div className="flex flex-col gap-3 p-4 text-sm">
          <p>
            {removing} can no longer open this board: every session, CLI token and invite link of theirs stops working
            at once. What they did stays attributed to them.
          </p>
          <div className="flex justify-end gap-2">
            <Button onClick={() => setRemoving(null)}>Cancel</Button>
            <Button
              variant="danger"
              disabled={remove.isPending}
              onClick={() => removing && remove.mutate({ name: removing })}
            >
              {remove.isPending ? "Removing…" : "Remove"}
            </Button>
          </div>
        </div>
      </Modal>
    </div>
  );
}

function AddPerson({
  onAdded,
  onError,
}: {
  onAdded: (name: string, invite: { url: string; expiresAt: string }) => void;
  onError: (e: unknown) => void;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [name, setName] = useState("");
  const [role, setRole] = useState<Role>("member");
  const add = useMutation(
    trpc.people.add.mutationOptions({
      onSuccess: (r) => {
        setName("");
        onAdded(r.person.name, r.invite);
      },
      onError,
    }),
  );
  return (
    <form
      aria-label="Add person"
      className="flex flex-wrap items-end gap-3 rounded-md border border-line p-3"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({ name: name.trim(), role });
      }}
    >
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-name`} className="text-sm font-semibold">
          Name
        </label>
        <input
          id={`${id}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="lowercase, e.g. mia"
          className={inputClass}
          required
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-role`} className="text-sm font-semibold">
          Role
        </label>
        <select
          id={`${id}-role`}
          value={role}
          onChange={(e) => setRole(e.target.value as Role)}
          className="rounded-md border border-line bg-canvas px-2 py-1.5 text-sm"
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="primary" disabled={add.isPending || !name.trim()}>
        {add.isPending ? "Adding…" : "Add person"}
      </Button>
    </form>
  );
}

function InviteLink({
  name,
  url,
  expiresAt,
  onDismiss,
}: {
  name: string;
  url: string;
  expiresAt: string;
  onDismiss: () => void;
}) {
  return (
    <Alert tone="accent" role="status" title={`Invite link for ${name}`} onDismiss={onDismiss}>
      <p>
        Send it to {name}: it signs them in once, until {new Date(expiresAt).toLocaleString()}. It is shown only now.
      </p>
      <p className="mt-1 flex items-center gap-2">
        <code className="break-all font-mono text-xs">{url}</code>
        <CopyButton text={url} label="Copy invite link" />
      </p>
    </Alert>
  );
}
