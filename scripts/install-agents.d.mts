export const AGENTS: Record<"claude" | "codex", { pkg: string; version: string; bin: string }>;
export function agentCache(): string;
export function agentPaths(name: "claude" | "codex"): { dir: string; bin: string };
export function installed(name: "claude" | "codex"): boolean;
