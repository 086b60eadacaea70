"use client";
// Pieces of the "New task" form: a labelled field with its hint or error, a list edited as rows
// (constraints, acceptance criteria: Enter adds a row, Backspace on an empty one removes it), a
// labelled select, and the agent profiles as options.
import { type ReactNode, useEffect, useMemo, useRef } from "react";
import { Button, inputClass } from "../ui";

/** An <option> per agent profile, "name (role)"; with `first`, the profiles of that role lead. */
export function ProfileOptions({
  profiles,
  first,
}: {
  profiles: Array<{ id: string; name: string; role: string }> | undefined;
  first?: string;
}) {
  const ordered = first
    ? [...(profiles ?? []).filter((a) => a.role === first), ...(profiles ?? []).filter((a) => a.role !== first)]
    : (profiles ?? []);
  return ordered.map((a) => (
    <option key={a.id} value={a.id}>
      {a.name} ({a.role})
    </option>
  ));
}

export function FieldBox({
  id,
  label,
  hint,
  error,
  required,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
        {required && (
          <span aria-hidden className="ml-0.5 text-danger">
            *
          </span>
        )}
      </label>
      {children}
      {error ? (
        <span id={`${id}-err`} role="alert" className="text-xs text-danger">
          {error}
        </span>
      ) : hint ? (
        <span id={`${id}-hint`} className="text-xs text-fg-muted">
          {hint}
        </span>
      ) : null}
    </div>
  );
}

/** A labelled <select> with its hint or error (described by whichever shows); `children`: its options. */
export function SelectField({
  id,
  label,
  hint,
  error,
  value,
  onChange,
  disabled,
  children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  value: string;
  onChange: (v: string) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <FieldBox id={id} label={label} hint={hint} error={error}>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-err` : hint ? `${id}-hint` : undefined}
        className={`${inputClass} disabled:opacity-60`}
      >
        {children}
      </select>
    </FieldBox>
  );
}

/** A list edited as rows: one input each, add and remove buttons. */
export function RowsEditor({
  id,
  label,
  singular,
  rows,
  onChange,
  error,
  rowErrors,
  path,
}: {
  id: string;
  label: string;
  singular: string;
  rows: string[];
  onChange: (r: string[]) => void;
  error?: string;
  rowErrors?: Record<string, string>;
  path: string;
}) {
  const refs = useRef<Array<HTMLInputElement | null>>([]);
  const focusNext = useRef<number | null>(null);
  useEffect(() => {
    if (focusNext.current !== null) refs.current[focusNext.current]?.focus();
    focusNext.current = null;
  });
  // Server row indexes count non-empty rows only (the form drops blank ones).
  const indexOf = useMemo(() => {
    let k = 0;
    return rows.map((r) => (r.trim() ? k++ : -1));
  }, [rows]);
  return (
    <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? `${id}-err` : undefined}>
      <legend className="mb-1 text-sm font-semibold">{label}</legend>
      {rows.map((r, i) => {
        const err = indexOf[i]! >= 0 ? rowErrors?.[`${path}.${indexOf[i]}`] : undefined;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a row is its place in the list (rows are edited text, not items with ids)
          <div key={i} className="flex flex-col gap-0.5">
            <div className="flex items-center gap-2">
              <input
                ref={(el) => {
                  refs.current[i] = el;
                }}
                aria-label={`${label} ${i + 1}`}
                value={r}
                aria-invalid={!!err}
                onChange={(e) => onChange(rows.map((x, j) => (j === i ? e.target.value : x)))}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    focusNext.current = i + 1;
                    onChange([...rows.slice(0, i + 1), "", ...rows.slice(i + 1)]);
                  } else if (e.key === "Backspace" && r === "" && rows.length > 1) {
                    e.preventDefault();
                    focusNext.current = Math.max(0, i - 1);
                    onChange(rows.filter((_, j) => j !== i));
                  }
                }}
                className={inputClass}
              />
              <Button
                variant="invisible"
                size="sm"
                aria-label={`Remove ${singular} ${i + 1}`}
                onClick={() => onChange(rows.length > 1 ? rows.filter((_, j) => j !== i) : [""])}
              >
                ×
              </Button>
            </div>
            {err && (
              <span role="alert" className="text-xs text-danger">
                {err}
              </span>
            )}
          </div>
        );
      })}
      <div>
        <Button
          variant="invisible"
          size="sm"
          onClick={() => {
            focusNext.current = rows.length;
            onChange([...rows, ""]);
          }}
        >
          + Add {singular}
        </Button>
      </div>
      {error && (
        <span id={`${id}-err`} role="alert" className="text-xs text-danger">
          {error}
        </span>
      )}
    </fieldset>
  );
}
