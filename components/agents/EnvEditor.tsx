"use client";
// A profile's "Environment" in the profile dialog: the variables already set (shown as "set",
// never with their values; each can get a new value or be removed, "Keep" undoes that) and rows
// for new ones (name and a write-only value).
import { Button, inputClass } from "../ui";

/** A variable the profile already has. */
export interface ExistingVar {
  name: string;
  /** a new value to set; "" keeps the current one */
  replace: string;
  removed: boolean;
}

/** A row for a new variable. */
export interface NewVar {
  key: number;
  name: string;
  value: string;
}

let rowSeq = 0;
export const newRow = (): NewVar => ({ key: ++rowSeq, name: "", value: "" });

export function EnvEditor({
  existing,
  setExisting,
  added,
  setAdded,
  error,
}: {
  existing: ExistingVar[];
  setExisting: (f: (l: ExistingVar[]) => ExistingVar[]) => void;
  added: NewVar[];
  setAdded: (f: (l: NewVar[]) => NewVar[]) => void;
  error?: string;
}) {
  const patchOld = (n: string, p: Partial<ExistingVar>) =>
    setExisting((l) => l.map((v) => (v.name === n ? { ...v, ...p } : v)));
  const patchNew = (k: number, p: Partial<NewVar>) => setAdded((l) => l.map((v) => (v.key === k ? { ...v, ...p } : v)));
  return (
    <fieldset
      className="flex flex-col gap-2 text-sm"
      aria-describedby={error ? "ag-env-err ag-env-hint" : "ag-env-hint"}
    >
      <legend className="font-semibold">Environment</legend>
      <p id="ag-env-hint" className="-mt-1 text-xs text-fg-muted">
        Variables the agent gets on top of the server&apos;s (API keys, for instance). Values are write-only: once saved
        they are never shown again, only that they are set. Leave a value empty to keep it.
      </p>
      {existing.length > 0 && (
        <ul aria-label="Variables that are set" className="flex flex-col gap-1.5">
          {existing.map((v) => (
            <li
              key={v.name}
              aria-label={v.name}
              className="grid grid-cols-[minmax(0,12rem)_auto_minmax(0,1fr)_auto] items-center gap-2"
            >
              <code className={`truncate font-mono text-xs ${v.removed ? "text-fg-muted line-through" : ""}`}>
                {v.name}
              </code>
              <span
                className={`rounded-full border px-2 text-[11px] leading-[18px] ${v.removed ? "border-danger/40 bg-danger-muted text-danger" : "border-success/40 bg-success-muted text-success"}`}
              >
                {v.removed ? "will be removed" : "set"}
              </span>
              <input
                type="password"
                autoComplete="new-password"
                aria-label={`New value for ${v.name}`}
                placeholder="keep the current value"
                value={v.replace}
                disabled={v.removed}
                onChange={(e) => patchOld(v.name, { replace: e.target.value })}
                className={`${inputClass} font-mono text-xs disabled:opacity-50`}
              />
              <Button
                size="sm"
                variant={v.removed ? "default" : "outline-danger"}
                aria-label={v.removed ? `Keep ${v.name}` : `Remove ${v.name}`}
                onClick={() => patchOld(v.name, { removed: !v.removed, replace: "" })}
              >
                {v.removed ? "Keep" : "Remove"}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {added.map((r, i) => (
        <div key={r.key} className="grid grid-cols-[minmax(0,12rem)_minmax(0,1fr)_auto] items-center gap-2">
          <input
            aria-label={`Variable name${added.length > 1 ? ` ${i + 1}` : ""}`}
            placeholder="NAME"
            value={r.name}
            onChange={(e) => patchNew(r.key, { name: e.target.value })}
            autoComplete="off"
            spellCheck={false}
            aria-invalid={!!error}
            className={`${inputClass} font-mono text-xs`}
          />
          <input
            type="password"
            autoComplete="new-password"
            aria-label={`Variable value${added.length > 1 ? ` ${i + 1}` : ""}`}
            placeholder="value"
            value={r.value}
            onChange={(e) => patchNew(r.key, { value: e.target.value })}
            className={`${inputClass} font-mono text-xs`}
          />
          <Button
            size="sm"
            variant="invisible"
            aria-label={`Drop variable row ${i + 1}`}
            onClick={() => setAdded((l) => l.filter((x) => x.key !== r.key))}
          >
            ×
          </Button>
        </div>
      ))}
      {error && (
        <span id="ag-env-err" role="alert" className="text-xs text-danger">
          {error}
        </span>
      )}
      <div>
        <Button size="sm" onClick={() => setAdded((l) => [...l, newRow()])}>
          Add variable
        </Button>
      </div>
    </fieldset>
  );
}
