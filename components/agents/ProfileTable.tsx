"use client";
// The profiles as a table: one row per profile (named by its id), its role, command, hooks,
// sandbox and the names of its environment variables (never their values), with Edit, Remove
// and Try it. Built-in profiles are marked; their Edit and Remove are disabled with the reason
// (their command follows the code), and "Environment" edits the variables they get.
import type { AgentProfile } from "../../lib/types";
import { Button } from "../ui";
import { argvLine } from "./argv";

export function ProfileTable({
  profiles,
  trying,
  onEdit,
  onRemove,
  onTry,
}: {
  profiles: AgentProfile[];
  /** the profile whose "Try it" is starting */
  trying: string | null;
  onEdit: (p: AgentProfile) => void;
  onRemove: (p: AgentProfile) => void;
  onTry: (p: AgentProfile) => void;
}) {
  return (
    <div className="overflow-x-auto rounded-md border border-line">
      <table aria-label="Agent profiles" className="w-full border-collapse text-sm">
        <thead className="bg-canvas-subtle text-left text-xs text-fg-muted">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Profile
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Role
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Command
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Options
            </th>
            <th scope="col" className="px-3 py-2 font-semibold">
              Environment
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {profiles.map((p) => {
            const why = `builtin-why-${p.id}`;
            return (
              <tr
                key={p.id}
                aria-label={p.id}
                data-profile={p.id}
                className="border-t border-line align-top hover:bg-canvas-subtle/60"
              >
                <th scope="row" className="px-3 py-2.5 text-left font-normal">
                  <div className="flex flex-wrap items-center gap-1.5">
                    <code className="font-mono font-semibold text-fg">{p.id}</code>
                    {p.builtIn && (
                      <span className="rounded-full border border-accent/40 bg-accent-muted px-1.5 text-[11px] font-medium leading-[18px] text-accent">
                        built-in
                      </span>
                    )}
                  </div>
                  {p.name !== p.id && <div className="text-xs text-fg-muted">{p.name}</div>}
                  {p.builtIn && (
                    <div id={why} className="mt-0.5 max-w-56 text-xs text-fg-subtle">
                      Built in: cannot be edited or removed (its command follows Switchyard&apos;s code); its
                      environment can be set.
                    </div>
                  )}
                </th>
                <td className="px-3 py-2.5 text-fg-muted">{p.role}</td>
                <td className="max-w-md px-3 py-2.5">
                  <code className="font-mono text-xs text-fg [overflow-wrap:anywhere]" title={p.argv.join("\n")}>
                    {argvLine(p.argv)}
                  </code>
                </td>
                <td className="px-3 py-2.5 text-xs text-fg-muted">
                  <div>{p.supportsHooks ? "hooks" : "no hooks"}</div>
                  {p.sandbox && <div>{p.sandboxNetwork ? "sandbox + network" : "sandbox"}</div>}
                </td>
                <td className="px-3 py-2.5">
                  {p.envNames.length === 0 ? (
                    <span className="text-xs text-fg-subtle">none</span>
                  ) : (
                    <ul aria-label={`Environment of ${p.id}`} className="flex flex-wrap gap-1">
                      {p.envNames.map((n) => (
                        <li
                          key={n}
                          className="rounded border border-line bg-canvas-subtle px-1.5 font-mono text-[11px] leading-[18px] text-fg-muted"
                          title={`${n} is set (the value is write-only)`}
                        >
                          {n}
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td className="px-3 py-2.5">
                  <div className="flex justify-end gap-1.5">
                    <Button
                      size="sm"
                      onClick={() => onTry(p)}
                      disabled={trying === p.id}
                      title={p.sandbox ? "A sandboxed profile is tried with a task" : `Start ${p.id} in a scratch pane`}
                    >
                      {trying === p.id ? "Starting…" : "Try it"}
                    </Button>
                    {p.builtIn ? (
                      <>
                        <Button size="sm" onClick={() => onEdit(p)} title={`Set the environment ${p.id} gets`}>
                          Environment
                        </Button>
                        <Button size="sm" disabled aria-describedby={why} title="Built in: it cannot be edited">
                          Edit
                        </Button>
                        <Button
                          size="sm"
                          variant="outline-danger"
                          disabled
                          aria-describedby={why}
                          title="Built in: it cannot be removed"
                        >
                          Remove
                        </Button>
                      </>
                    ) : (
                      <>
                        <Button size="sm" onClick={() => onEdit(p)}>
                          Edit
                        </Button>
                        <Button size="sm" variant="outline-danger" onClick={() => onRemove(p)}>
                          Remove
                        </Button>
                      </>
                    )}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
