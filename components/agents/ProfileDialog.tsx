"use client";
// "Add agent" / "Edit agent <id>": a profile's id, name, command (one argv entry per line, with
// the placeholders explained), role, hooks, sandbox and environment. Env values are write-only:
// an existing variable shows as "set" (its value never reaches the browser); it can be given a
// new value or removed, and every variable not touched keeps its value (agents.update's
// env {set, remove}). A built-in profile opens with its environment only (the server refuses
// other changes to it). Server errors show next to the field they are about.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect, useRef, useState } from "react";
import type { AgentProfile } from "../../lib/types";
import { errorOf, issuesOf, useTRPC, type YardErrorData } from "../../lib/trpc";
import { useToast } from "../Toasts";
import { Alert, Button, inputClass, Modal } from "../ui";
import { ARGV_PLACEHOLDERS, argvLine, argvToText, textToArgv } from "./argv";
import { EnvEditor, type ExistingVar, type NewVar, newRow } from "./EnvEditor";

const ROLES = [
  ["worker", "works on a task in its worktree"],
  ["reviewer", "reviews a worker's changes"],
  ["planner", "splits work into tasks"],
  ["orchestrator", "starts, steers and finishes tasks in its context"],
] as const;
type Role = (typeof ROLES)[number][0];

type Field = "id" | "name" | "argv" | "role" | "env" | "sandbox" | "form";

/** Which field a server error is about (zod issue paths, or the detail it names). */
function profileFieldErrors(e: YardErrorData): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  const issues = issuesOf(e);
  for (const [p, msg] of Object.entries(issues)) {
    const head = p.split(".")[0] ?? "";
    const field: Field =
      head === "id" || head === "name" || head === "argv" || head === "role" || head === "env"
        ? head
        : head.startsWith("sandbox")
          ? "sandbox"
          : "form";
    out[field] ??= field === "env" && p.includes(".") ? `${p.split(".").slice(1).join(".")}: ${msg}` : msg;
  }
  if (Object.keys(issues).length) return out;
  const d = (e.details ?? {}) as Record<string, unknown>;
  if ("placeholder" in d || "argv" in d) out.argv = e.message;
  else if (e.code === "CONFLICT" && /already exists/.test(e.message)) out.id = e.message;
  else if ("name" in d && e.code === "NOT_FOUND") out.env = e.message;
  else out.form = e.message;
  return out;
}

export function ProfileDialog({
  open,
  profile,
  onClose,
}: {
  open: boolean /** null: add a new profile */;
  profile: AgentProfile | null;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const toast = useToast();
  const editing = profile !== null;
  const envOnly = profile?.builtIn ?? false;
  const [id, setId] = useState("");
  const [name, setName] = useState("");
  const [argvText, setArgvText] = useState("");
  const [role, setRole] = useState<Role>("worker");
  const [hooks, setHooks] = useState(false);
  const [sandbox, setSandbox] = useState(false);
  const [network, setNetwork] = useState(false);
  const [existing, setExisting] = useState<ExistingVar[]>([]);
  const [added, setAdded] = useState<NewVar[]>([]);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const argvRef = useRef<HTMLTextAreaElement>(null);

  // Fill the form each time it opens (an edit starts from the profile as listed).
  useEffect(() => {
    if (!open) return;
    setErrors({});
    setId(profile?.id ?? "");
    setName(profile && profile.name !== profile.id ? profile.name : "");
    setArgvText(profile ? argvToText(profile.argv) : "");
    setRole(profile?.role ?? "worker");
    setHooks(profile?.supportsHooks ?? false);
    setSandbox(profile?.sandbox ?? false);
    setNetwork(profile?.sandboxNetwork ?? false);
    setExisting((profile?.envNames ?? []).map((n) => ({ name: n, replace: "", removed: false })));
    setAdded(profile?.envNames.length ? [] : [newRow()]);
  }, [open, profile]);

  const done = (verb: string) => async (p: AgentProfile) => {
    await qc.invalidateQueries(trpc.agents.list.pathFilter());
    toast({ tone: "success", title: `${verb} agent ${p.id}` });
    onClose();
  };
  const onError = (e: unknown) => {
    const f = profileFieldErrors(errorOf(e));
    setErrors(f);
    if (f.argv) argvRef.current?.focus();
  };
  const add = useMutation(trpc.agents.add.mutationOptions({ onSuccess: done("Added"), onError }));
  const update = useMutation(trpc.agents.update.mutationOptions({ onSuccess: done("Saved"), onError }));
  const busy = add.isPending || update.isPending;

  function submit() {
    setErrors({});
    const argv = textToArgv(argvText);
    if (!envOnly && argv.length === 0) {
      setErrors({ argv: "The command needs at least the program to run (its first line)." });
      argvRef.current?.focus();
      return;
    }
    const set: Record<string, string> = {};
    for (const r of added) {
      const n = r.name.trim();
      if (!n && !r.value) continue;
      if (!n) {
        setErrors({ env: "A variable with a value needs a name." });
        return;
      }
      set[n] = r.value;
    }
    for (const v of existing) if (!v.removed && v.replace) set[v.name] = v.replace;
    const remove = existing.filter((v) => v.removed && !(v.name in set)).map((v) => v.name);
    const common = {
      role,
      supportsHooks: hooks,
      sandbox,
      sandboxNetwork: sandbox && network,
      name: name.trim() || undefined,
    };
    if (!editing) add.mutate({ id: id.trim(), argv, env: set, ...common });
    else if (envOnly) update.mutate({ id: profile.id, env: { set, remove } });
    else update.mutate({ id: profile.id, argv, env: { set, remove }, ...common });
  }

  const title = editing ? `Edit agent ${profile.id}` : "Add agent";
  return (
    <Modal open={open} onClose={onClose} title={title} width="max-w-2xl">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        className="flex max-h-[80vh] flex-col"
      >
        <div className="flex flex-col gap-4 overflow-y-auto p-4">
          {errors.form && <Alert title="Not saved">{errors.form}</Alert>}
          {envOnly && (
            <p className="rounded-md border border-line bg-canvas-subtle px-3 py-2 text-sm text-fg-muted">
              <span className="font-semibold text-fg">{profile!.id}</span> is built in: its command and role follow
              Switchyard&apos;s code (<code className="font-mono text-xs">{argvLine(profile!.argv, 30)}</code>). Only
              its environment can be changed here; add a custom profile to run it another way.
            </p>
          )}
          {!envOnly && (
            <>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                {editing ? (
                  <div className="flex flex-col gap-1 text-sm">
                    <span className="font-semibold">Profile id</span>
                    <code className="py-1.5 font-mono">{profile.id}</code>
                    <span className="text-xs text-fg-muted">An id cannot be changed.</span>
                  </div>
                ) : (
                  <Row
                    id="ag-id"
                    label="Profile id"
                    error={errors.id}
                    hint="Lowercase letters, digits and -, up to 40 characters."
                  >
                    <input
                      id="ag-id"
                      value={id}
                      onChange={(e) => setId(e.target.value)}
                      required
                      maxLength={40}
                      autoComplete="off"
                      spellCheck={false}
                      placeholder="my-agent"
                      aria-invalid={!!errors.id}
                      aria-describedby={errors.id ? "ag-id-err" : "ag-id-hint"}
                      className={`${inputClass} font-mono`}
                    />
                  </Row>
                )}
                <Row
                  id="ag-name"
                  label="Display name"
                  optional
                  error={errors.name}
                  hint="Shown in lists; defaults to the id."
                >
                  <input
                    id="ag-name"
                    value={name}
                    onChange={(e) => setName(e.target.value)}
                    maxLength={80}
                    autoComplete="off"
                    aria-invalid={!!errors.name}
                    aria-describedby={errors.name ? "ag-name-err" : "ag-name-hint"}
                    className={inputClass}
                  />
                </Row>
              </div>
              <Row
                id="ag-argv"
                label="Command"
                error={errors.argv}
                hint={
                  <>
                    <p>
                      One argument per line; the first line is the program (a name on the panes&apos; PATH or an
                      absolute path). Each line is passed as it is: no shell quoting, no variables; blank lines are
                      dropped.
                    </p>
                    <p className="mt-1">Placeholders, filled in when the agent starts:</p>
                    <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-3 gap-y-0.5">
                      {ARGV_PLACEHOLDERS.map((p) => (
                        <div key={p.name} className="contents">
                          <dt>
                            <code className="font-mono text-fg">{`{{${p.name}}}`}</code>
                          </dt>
                          <dd>
                            <Ticks text={p.means} />
                          </dd>
                        </div>
                      ))}
                    </dl>
                  </>
                }
              >
                <textarea
                  id="ag-argv"
                  ref={argvRef}
                  value={argvText}
                  onChange={(e) => setArgvText(e.target.value)}
                  rows={Math.min(8, Math.max(3, argvText.split("\n").length + 1))}
                  wrap="off"
                  spellCheck={false}
                  placeholder={"{{node}}\n{{yardRoot}}/agents/demo/demo-agent.mjs\n--name\nmine"}
                  aria-invalid={!!errors.argv}
                  aria-describedby={errors.argv ? "ag-argv-err ag-argv-hint" : "ag-argv-hint"}
                  className={`${inputClass} resize-y font-mono text-xs leading-5`}
                />
              </Row>
              <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
                <Row id="ag-role" label="Role" error={errors.role} hint={ROLES.find((r) => r[0] === role)?.[1]}>
                  <select
                    id="ag-role"
                    value={role}
                    onChange={(e) => setRole(e.target.value as Role)}
                    aria-describedby="ag-role-hint"
                    className={inputClass}
                  >
                    {ROLES.map(([r]) => (
                      <option key={r} value={r}>
                        {r}
                      </option>
                    ))}
                  </select>
                </Row>
                <fieldset className="flex flex-col gap-1.5 text-sm">
                  <legend className="mb-1 font-semibold">Options</legend>
                  <Check
                    id="ag-hooks"
                    label="Hooks"
                    checked={hooks}
                    onChange={setHooks}
                    hint={
                      <>
                        The program reports its state through <code className="font-mono">yard hook &lt;Event&gt;</code>{" "}
                        (Claude Code style).
                      </>
                    }
                  />
                  <Check
                    id="ag-sandbox"
                    label="Sandbox"
                    checked={sandbox}
                    onChange={(v) => {
                      setSandbox(v);
                      if (!v) setNetwork(false);
                    }}
                    hint="Its tasks run in the OS sandbox: writes only to the task's worktree."
                  />
                  <Check
                    id="ag-network"
                    label="Network in the sandbox"
                    checked={sandbox && network}
                    disabled={!sandbox}
                    onChange={setNetwork}
                    hint="Keep the host's network inside the sandbox (off: none)."
                  />
                  {errors.sandbox && (
                    <span role="alert" className="text-xs text-danger">
                      {errors.sandbox}
                    </span>
                  )}
                </fieldset>
              </div>
            </>
          )}
          <EnvEditor
            existing={existing}
            setExisting={setExisting}
            added={added}
            setAdded={setAdded}
            error={errors.env}
          />
        </div>
        <div className="flex justify-end gap-2 border-t border-line px-4 py-3">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {busy ? "Saving…" : "Save"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}

function Row({
  id,
  label,
  optional,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  optional?: boolean;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-semibold">
        {label} {optional && <span className="font-normal text-fg-muted">(optional)</span>}
      </label>
      {children}
      {error && (
        <span id={`${id}-err`} role="alert" className="text-xs text-danger">
          {error}
        </span>
      )}
      {hint && (
        <div id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </div>
      )}
    </div>
  );
}

/** Text with `code` spans. */
function Ticks({ text }: { text: string }) {
  return (
    <>
      {text.split("`").map((part, i) =>
        i % 2 ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: static parts of a constant text
          <code key={i} className="font-mono text-fg">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </>
  );
}

function Check({
  id,
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  hint: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className={`flex items-start gap-2 ${disabled ? "opacity-60" : ""}`}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={`${id}-hint`}
        className="mt-0.5 h-4 w-4 accent-[var(--color-accent)]"
      />
      <div className="flex flex-col">
        <label htmlFor={id}>{label}</label>
        <span id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </span>
      </div>
    </div>
  );
}
