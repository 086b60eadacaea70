"use client";
// "Start a pane": an agent profile or a custom command, a working directory and an optional
// label. The server validates; its message is shown under the field it is about.
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { errorOf, useTRPC } from "../lib/trpc";
import type { PaneInfo } from "../lib/types";
import { inputClass } from "./ui";

interface AgentOption {
  id: string;
  name: string;
  argv: string[];
}

/**
 * Splits a command line into words like a POSIX shell would for simple input: whitespace
 * separates, '…' is literal, "…" allows \" and \\, a backslash outside quotes escapes the next
 * character. No variables, globs or operators.
 */
function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("Unclosed ' quote");
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === "\\" && (line[j + 1] === '"' || line[j + 1] === "\\")) j++;
        word += line[j];
      }
      if (j >= line.length) throw new Error('Unclosed " quote');
      i = j;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

type Field = "agent" | "command" | "cwd" | "label" | "form";

/** Which field a server error is about (zod issue paths or the details it names). */
function fieldOf(e: ReturnType<typeof errorOf>): Field {
  const d = e.details ?? {};
  const issues = Array.isArray((d as { issues?: unknown }).issues)
    ? (d as { issues: Array<{ path?: string }> }).issues
    : [];
  const path = issues[0]?.path ?? "";
  if ("cwd" in d || path.startsWith("cwd")) return "cwd";
  if ("argv" in d || path.startsWith("argv")) return "command";
  if (path.startsWith("agent") || ("id" in d && e.code === "NOT_FOUND")) return "agent";
  if (path.startsWith("label")) return "label";
  return "form";
}

/** A profile's argv for people: its placeholders in words. */
function describeArgv(argv: string[]): string {
  const words: Record<string, string> = { shell: "$SHELL", node: "node", yardRoot: "…", claudeHookSettings: "<hooks>" };
  return argv.map((a) => a.replace(/\{\{(\w+)\}\}/g, (m, k: string) => words[k] ?? m)).join(" ");
}

export function SpawnPaneForm({ onSpawned }: { onSpawned: (pane: PaneInfo) => void }) {
  const trpc = useTRPC();
  const agentsQuery = useQuery(trpc.agents.list.queryOptions());
  const agents: AgentOption[] | null = agentsQuery.data ?? null;
  const spawn = useMutation(trpc.panes.spawn.mutationOptions());
  const [mode, setMode] = useState<"agent" | "command">("agent");
  const [agent, setAgent] = useState("shell");
  const [command, setCommand] = useState("");
  const [cwd, setCwd] = useState("");
  const [label, setLabel] = useState("");
  const [error, setError] = useState<{ field: Field; message: string } | null>(null);
  const busy = spawn.isPending;
  const commandRef = useRef<HTMLInputElement>(null);
  const cwdRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const list = agentsQuery.data;
    if (list?.length && !list.some((a) => a.id === "shell")) setAgent(list[0]!.id);
  }, [agentsQuery.data]);
  useEffect(() => {
    if (agentsQuery.error) setError({ field: "agent", message: errorOf(agentsQuery.error).message });
  }, [agentsQuery.error]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    let argv: string[] | undefined;
    if (mode === "command") {
      try {
        argv = splitCommand(command);
      } catch (err) {
        setError({ field: "command", message: (err as Error).message });
        commandRef.current?.focus();
        return;
      }
      if (argv.length === 0) {
        setError({ field: "command", message: "Type a command to run, e.g. bash -i" });
        commandRef.current?.focus();
        return;
      }
    }
    const dir = cwd.trim();
    if (!dir.startsWith("/")) {
      setError({
        field: "cwd",
        message: dir ? "Use an absolute path (starting with /)" : "Choose the directory to start in",
      });
      cwdRef.current?.focus();
      return;
    }
    try {
      const pane = await spawn.mutateAsync({
        ...(mode === "agent" ? { agent } : { argv }),
        cwd: dir,
        label: label.trim() || undefined,
      });
      onSpawned(pane);
    } catch (err) {
      const y = errorOf(err);
      const field = fieldOf(y);
      setError({ field, message: y.message });
      if (field === "cwd") cwdRef.current?.focus();
      else if (field === "command") commandRef.current?.focus();
    }
  }

  const fieldError = (f: Field) =>
    error?.field === f ? (
      <span id={`spawn-${f}-error`} role="alert" className="text-xs text-danger">
        {error.message}
      </span>
    ) : null;
  const invalid = (f: Field) => (error?.field === f ? true : undefined);
  const describedBy = (f: Field, help?: string) => (error?.field === f ? `spawn-${f}-error` : help);
  const selected = agents?.find((a) => a.id === agent);

  return (
    <form
      onSubmit={submit}
      aria-labelledby="spawn-title"
      className="flex flex-col gap-3 rounded-lg border border-line bg-canvas-subtle p-4"
      noValidate
    >
      <h2 id="spawn-title" className="text-sm font-semibold">
        Start a pane
      </h2>

      <fieldset className="flex flex-col gap-2">
        <legend className="sr-only">What to run</legend>
        <div
          role="radiogroup"
          aria-label="What to run"
          className="flex overflow-hidden rounded-md border border-line text-sm"
        >
          {(["agent", "command"] as const).map((m) => (
            <label
              key={m}
              className={`flex flex-1 cursor-pointer items-center justify-center px-2 py-1 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent ${
                mode === m ? "bg-neutral-muted font-medium" : "hover:bg-btn-hover"
              }`}
            >
              <input
                type="radio"
                name="mode"
                value={m}
                checked={mode === m}
                onChange={() => {
                  setMode(m);
                  setError(null);
                }}
                className="sr-only"
              />
              {m === "agent" ? "Agent profile" : "Command"}
            </label>
          ))}
        </div>

        {mode === "agent" ? (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Agent</span>
            <select
              name="agent"
              value={agent}
              onChange={(e) => setAgent(e.target.value)}
              disabled={!agents}
              aria-invalid={invalid("agent")}
              aria-describedby={describedBy("agent", "spawn-agent-help")}
              className={inputClass}
            >
              {!agents && <option>Loading…</option>}
              {agents?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.id})
                </option>
              ))}
            </select>
            {fieldError("agent") ?? (
              <span
                id="spawn-agent-help"
                className="truncate font-mono text-xs text-fg-muted"
                title={selected?.argv.join(" ")}
              >
                {selected ? `Runs ${describeArgv(selected.argv)}` : " "}
              </span>
            )}
          </label>
        ) : (
          <label className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Command</span>
            <input
              ref={commandRef}
              name="command"
              value={command}
              onChange={(e) => setCommand(e.target.value)}
              placeholder="bash -i"
              autoComplete="off"
              spellCheck={false}
              aria-invalid={invalid("command")}
              aria-describedby={describedBy("command", "spawn-command-help")}
              className={`${inputClass} font-mono`}
            />
            {fieldError("command") ?? (
              <span id="spawn-command-help" className="text-xs text-fg-muted">
                Program and arguments; quote words with spaces. Runs directly, not through a shell.
              </span>
            )}
          </label>
        )}
      </fieldset>

      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">Working directory</span>
        <input
          ref={cwdRef}
          name="cwd"
          required
          value={cwd}
          onChange={(e) => setCwd(e.target.value)}
          placeholder="/home/you/src/my-repo"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={invalid("cwd")}
          aria-describedby={describedBy("cwd", "spawn-cwd-help")}
          className={`${inputClass} font-mono`}
        />
        {fieldError("cwd") ?? (
          <span id="spawn-cwd-help" className="text-xs text-fg-muted">
            An existing directory, as an absolute path.
          </span>
        )}
      </label>

      <label className="flex flex-col gap-1 text-sm">
        <span className="font-medium">
          Label <span className="font-normal text-fg-muted">(optional)</span>
        </span>
        <input
          name="label"
          value={label}
          onChange={(e) => setLabel(e.target.value)}
          placeholder="defaults to the command"
          maxLength={120}
          aria-invalid={invalid("label")}
          aria-describedby={describedBy("label")}
          className={inputClass}
        />
        {fieldError("label")}
      </label>

      {fieldError("form")}

      <button
        type="submit"
        disabled={busy || (mode === "agent" && !agents)}
        className="self-start rounded-md bg-primary px-4 py-1.5 text-sm font-medium text-white hover:bg-primary-hover disabled:opacity-50"
      >
        {busy ? "Starting…" : "Start"}
      </button>
    </form>
  );
}
