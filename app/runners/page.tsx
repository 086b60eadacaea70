"use client";
// /runners (admins): the machines agents may run on, reached over SSH. "Add runner", and per
// runner "Check" (logs in, host key verified), "Trust host key" (the fingerprint you checked with
// the machine's administrator: a check that meets an unknown key shows what the host presents, and
// nothing is trusted without a fingerprint typed or pasted here), "Install" (the pane host kit)
// and "Remove". The same as `yard runner …`.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { TopBar } from "../../components/TopBar";
import { Alert, Button, inputClass, Modal, Spinner, timeAgo } from "../../components/ui";
import { useMe } from "../../lib/people";
import { errorOf, useTRPC, type YardErrorData } from "../../lib/trpc";

type Presented = { type: string; fingerprint: string };

export default function RunnersPage() {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const me = useMe();
  const runners = useQuery(trpc.runners.list.queryOptions(undefined, { enabled: me?.role === "admin" }));
  const [error, setError] = useState<YardErrorData | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [trusting, setTrusting] = useState<{ name: string; presented: Presented[] } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const refresh = () => void qc.invalidateQueries(trpc.runners.pathFilter());
  const onError = (e: unknown) => {
    setNote(null);
    setError(errorOf(e));
    refresh();
  };
  const check = useMutation(
    trpc.runners.check.mutationOptions({
      onSuccess: (r, v) => {
        setError(null);
        setNote(
          `Runner ${v.name} answers: node ${r.node}; kit ${r.kit?.installed ? "installed" : "not installed yet"}.`,
        );
        refresh();
      },
      onError: (e, v) => {
        const err = errorOf(e);
        if (err.code === "HOST_KEY_UNKNOWN") {
          const presented = ((err.details as { fingerprints?: Presented[] } | null)?.fingerprints ?? []) as Presented[];
          setTrusting({ name: v.name, presented });
        }
        onError(e);
      },
    }),
  );
  const install = useMutation(
    trpc.runners.install.mutationOptions({
      onSuccess: (r) => {
        setError(null);
        setNote(
          r.already
            ? `Runner ${r.name} has kit ${r.kit} already.`
            : `Installed kit ${r.kit} on ${r.name}: ${r.files} files, ${(r.bytes / 1e6).toFixed(1)} MB.`,
        );
        refresh();
      },
      onError,
    }),
  );
  const remove = useMutation(
    trpc.runners.remove.mutationOptions({
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
    document.title = "Runners · Switchyard";
  }, []);
  const busy = check.isPending || install.isPending;

  return (
    <div className="flex min-h-screen flex-col">
      <TopBar />
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-4 p-4">
        <h1 className="text-lg font-semibold">Runners</h1>
        <p className="max-w-3xl text-sm text-fg-muted">
          Machines agents may run on, reached with this machine&apos;s OpenSSH client (your ~/.ssh/config and agent
          apply). A runner&apos;s host key is trusted only with the fingerprint you checked with its administrator; node
          is all a runner needs.
        </p>
        {me && me.role !== "admin" && <Alert tone="attention">Only an admin manages runners.</Alert>}
        {error && (
          <Alert title="Refused" onDismiss={() => setError(null)}>
            {error.message}
          </Alert>
        )}
        {note && (
          <Alert tone="accent" role="status" onDismiss={() => setNote(null)}>
            {note}
          </Alert>
        )}
        {me?.role === "admin" && <AddRunner onAdded={refresh} onError={onError} />}
        {runners.error && <Alert>{errorOf(runners.error).message}</Alert>}
        {me?.role === "admin" && !runners.data && !runners.error && <Spinner />}
        {runners.data && runners.data.length === 0 && <p className="text-sm text-fg-muted">No runners yet.</p>}
        {runners.data && runners.data.length > 0 && (
          <table className="w-full text-sm" aria-label="Runners">
            <thead className="text-left text-xs text-fg-muted">
              <tr>
                <th className="py-2 pr-4 font-medium">Name</th>
                <th className="py-2 pr-4 font-medium">SSH</th>
                <th className="py-2 pr-4 font-medium">Host key</th>
                <th className="py-2 pr-4 font-medium">Last check</th>
                <th className="py-2" />
              </tr>
            </thead>
            <tbody>
              {runners.data.map((r) => (
                <tr key={r.name} className="border-t border-line align-top">
                  <td className="py-2 pr-4">
                    <div className="font-semibold">{r.name}</div>
                    <div className="text-xs text-fg-muted">
                      {r.labels.length ? r.labels.join(", ") : "no labels"} · {r.capacity} at once
                    </div>
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs break-all">
                    {r.user}@{r.host}:{r.port}
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs break-all">
                    {r.fingerprint ?? <span className="text-fg-muted">not trusted</span>}
                  </td>
                  <td className="py-2 pr-4 text-xs">
                    {r.lastCheck ? (
                      <>
                        <span className={r.lastCheck.ok ? "text-success" : "text-danger"}>
                          {r.lastCheck.ok ? `ok, node ${r.lastCheck.node}` : r.lastCheck.error?.code}
                        </span>{" "}
                        <span className="text-fg-muted">{timeAgo(r.lastCheck.at)}</span>
                      </>
                    ) : (
                      <span className="text-fg-muted">never</span>
                    )}
                  </td>
                  <td className="py-2 text-right">
                    <span className="inline-flex flex-wrap justify-end gap-2">
                      <Button size="sm" disabled={busy} onClick={() => check.mutate({ name: r.name })}>
                        Check {r.name}
                      </Button>
                      <Button size="sm" onClick={() => setTrusting({ name: r.name, presented: [] })}>
                        Trust host key of {r.name}
                      </Button>
                      <Button size="sm" disabled={busy} onClick={() => install.mutate({ name: r.name })}>
                        Install on {r.name}
                      </Button>
                      <Button size="sm" variant="outline-danger" onClick={() => setRemoving(r.name)}>
                        Remove {r.name}
                      </Button>
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </main>
      {trusting && (
        <TrustDialog
          {...trusting}
          onClose={() => setTrusting(null)}
          onTrusted={(fp) => {
            setTrusting(null);
            setError(null);
            setNote(`Trusted host key ${fp} for ${trusting.name}.`);
            refresh();
          }}
          onError={onError}
        />
      )}
      <Modal open={removing !== null} onClose={() => setRemoving(null)} title={`Remove ${removing ?? ""}`}>
        <div className="flex flex-col gap-3 p-4 text-sm">
          <p>Forget runner {removing} and the host key trusted for it.</p>
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

function TrustDialog({
  name,
  presented,
  onClose,
  onTrusted,
  onError,
}: {
  name: string;
  presented: Presented[];
  onClose: () => void;
  onTrusted: (fingerprint: string) => void;
  onError: (e: unknown) => void;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [fingerprint, setFingerprint] = useState("");
  const trust = useMutation(
    trpc.runners.trust.mutationOptions({ onSuccess: (r) => onTrusted(r.fingerprint), onError }),
  );
  return (
    <Modal open onClose={onClose} title={`Trust the host key of ${name}`}>
      <form
        className="flex flex-col gap-3 p-4 text-sm"
        onSubmit={(e) => {
          e.preventDefault();
          trust.mutate({ name, fingerprint: fingerprint.trim() });
        }}
      >
        {presented.length > 0 && (
          <div>
            <p>{name} presents:</p>
            <ul className="mt-1 font-mono text-xs">
              {presented.map((k) => (
                <li key={k.fingerprint}>
                  {k.fingerprint} ({k.type})
                </li>
              ))}
            </ul>
          </div>
        )}
        <p>
          Ask the machine&apos;s administrator for its fingerprint (
          <code>ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub</code> there) and enter it: only a key with exactly
          that fingerprint is trusted.
        </p>
        <label htmlFor={`${id}-fp`} className="font-semibold">
          Fingerprint you checked
        </label>
        <input
          id={`${id}-fp`}
          value={fingerprint}
          onChange={(e) => setFingerprint(e.target.value)}
          placeholder="SHA256:…"
          className={`${inputClass} font-mono`}
          autoComplete="off"
          required
        />
        <div className="flex justify-end gap-2">
          <Button type="button" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={trust.isPending || !fingerprint.trim()}>
            {trust.isPending ? "Trusting…" : "Trust"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function AddRunner({ onAdded, onError }: { onAdded: () => void; onError: (e: unknown) => void }) {
  const trpc = useTRPC();
  const id = useId();
  const [name, setName] = useState("");
  const [ssh, setSsh] = useState("");
  const [identity, setIdentity] = useState("");
  const [labels, setLabels] = useState("");
  const add = useMutation(
    trpc.runners.add.mutationOptions({
      onSuccess: () => {
        setName("");
        setSsh("");
        setIdentity("");
        setLabels("");
        onAdded();
      },
      onError,
    }),
  );
  const field = (key: string, label: string, value: string, set: (v: string) => void, placeholder: string) => (
    <div className="flex flex-col gap-1">
      <label htmlFor={`${id}-${key}`} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={`${id}-${key}`}
        value={value}
        onChange={(e) => set(e.target.value)}
        placeholder={placeholder}
        className={inputClass}
      />
    </div>
  );
  return (
    <form
      aria-label="Add runner"
      className="flex flex-wrap items-end gap-3 rounded-md border border-line p-3"
      onSubmit={(e) => {
        e.preventDefault();
        add.mutate({
          name: name.trim(),
          ssh: ssh.trim(),
          ...(identity.trim() ? { identityFile: identity.trim() } : {}),
          labels: labels
            .split(",")
            .map((l) => l.trim())
            .filter(Boolean),
        });
      }}
    >
      {field("name", "Name", name, setName, "build-1")}
      {field("ssh", "SSH", ssh, setSsh, "user@host:22")}
      {field("identity", "Key file (optional)", identity, setIdentity, "/home/you/.ssh/id_ed25519")}
      {field("labels", "Labels (optional)", labels, setLabels, "linux,gpu")}
      <Button type="submit" variant="primary" disabled={add.isPending || !name.trim() || !ssh.trim()}>
        {add.isPending ? "Adding…" : "Add runner"}
      </Button>
    </form>
  );
}
