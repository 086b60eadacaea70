// Agent profiles: how to launch an agent (argv template, role, hook support, env, whether its
// tasks run in the OS sandbox and with or without network).
// Owns the built-in profiles (claude-code, codex, shell, demo), validation of custom ones,
// updating and removing them, and expanding an argv template for a spawn. Env values are
// write-only: what leaves this module for callers (`ProfileView`) names the variables, never
// their values; an update sets or removes variables by name and keeps the others.
//
// argv placeholders (`{{node}}`, `{{yardRoot}}`, `{{shell}}`, `{{claudeHookSettings}}`,
// `{{codexHooks}}`, `{{codexNotify}}`; what each means is in server/wire/placeholders.ts) are expanded at
// spawn time; an unknown one is BAD_PARAMS.
import { REPO_ROOT } from "../../root";
import { z } from "zod";
import { argvSchema } from "../../wire/common";
import { profileRole, type profileView } from "../../wire/projects";
import type { ProfileStore } from "../../stores/profiles";
import { YardError } from "../errors";
import { KNOWN_HOOK_EVENTS } from "../hooks/payload";
import { codexHooksOverride, codexNotifyOverride } from "./codex";
import type { PlaceholderName } from "../../wire/placeholders";

const ROLES = profileRole.options;
export type Role = (typeof ROLES)[number];

/** A profile as callers see it: env names only (values are often API keys); server/wire/projects.ts. */
export type ProfileView = z.infer<typeof profileView>;

/** A profile with its environment's values (the server's own record; never sent). */
export type AgentProfile = Omit<ProfileView, "envNames"> & { env: Record<string, string> };

function toView(p: AgentProfile): ProfileView {
  const { env, ...rest } = p;
  return { ...rest, envNames: Object.keys(env).sort() };
}

/** Hook events Switchyard registers with Claude Code (every known one but PreCompact); each runs `yard hook <Event>`. */
const CLAUDE_HOOK_EVENTS = KNOWN_HOOK_EVENTS.filter((e) => e !== "PreCompact");

function claudeHookSettings(): string {
  const hooks: Record<string, unknown> = {};
  for (const ev of CLAUDE_HOOK_EVENTS)
    hooks[ev] = [{ matcher: "", hooks: [{ type: "command", command: `yard hook ${ev}` }] }];
  return JSON.stringify({ hooks });
}

export const BUILT_IN_PROFILES: AgentProfile[] = [
  {
    id: "claude-code",
    name: "Claude Code",
    role: "worker",
    argv: ["claude", "--settings", "{{claudeHookSettings}}"],
    supportsHooks: true,
    env: {},
    builtIn: true,
    sandbox: false,
    sandboxNetwork: false,
  },
  // --no-daemon: Codex's shared background server would outlive the pane and run later tasks'
  // commands with this pane's environment. allow_login_shell=false: a login shell's profile resets
  // PATH, and the agent's commands must see the pane's (`yard` on it). Hooks and notify are
  // session flags (core/agents/codex.ts). Nothing here is written to the user's config.
  {
    id: "codex",
    name: "Codex",
    role: "worker",
    argv: ["codex", "--no-daemon", "-c", "allow_login_shell=false", "-c", "{{codexHooks}}", "-c", "{{codexNotify}}"],
    supportsHooks: true,
    env: {},
    builtIn: true,
    sandbox: false,
    sandboxNetwork: false,
  },
  {
    id: "shell",
    name: "Shell",
    role: "worker",
    argv: ["{{shell}}"],
    supportsHooks: false,
    env: {},
    builtIn: true,
    sandbox: false,
    sandboxNetwork: false,
  },
  {
    id: "demo",
    name: "Demo agent",
    role: "worker",
    argv: ["{{node}}", "{{yardRoot}}/agents/demo/demo-agent.mjs"],
    supportsHooks: true,
    env: {},
    builtIn: true,
    sandbox: false,
    sandboxNetwork: false,
  },
];

/** Replaces `{{name}}` placeholders; an unknown placeholder is a BAD_PARAMS error at spawn time. */
export function expandArgv(argv: string[], vars: Record<string, string> = {}): string[] {
  const builtIn: Record<PlaceholderName, string> = {
    node: process.execPath,
    yardRoot: REPO_ROOT,
    shell: process.env.SHELL || "/bin/bash",
    claudeHookSettings: claudeHookSettings(),
    codexHooks: codexHooksOverride(),
    codexNotify: codexNotifyOverride(),
  };
  const all: Record<string, string> = { ...builtIn, ...vars };
  return argv.map((arg) =>
    arg.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
      const v = all[name];
      if (v === undefined)
        throw new YardError("BAD_PARAMS", `Unknown placeholder {{${name}}} in agent argv`, { placeholder: name });
      return v;
    }),
  );
}

const noNul = (s: string) => !s.includes("\0");
/** The argv contract lives with the other input contracts; re-exported for the core's callers. */
export { argvSchema };

export const envSchema = z.record(
  z
    .string()
    .max(256)
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "environment variable names are letters, digits and _"),
  z.string().max(32768).refine(noNul, "environment values must not contain NUL bytes"),
);

export const agentProfileInput = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "id: lowercase letters, digits and -, up to 40 characters"),
    name: z.string().trim().min(1).max(80).optional(),
    role: z.enum(ROLES).default("worker"),
    argv: argvSchema,
    supportsHooks: z.boolean().default(false),
    env: envSchema.default({}),
    sandbox: z.boolean().default(false),
    sandboxNetwork: z.boolean().default(false),
  })
  .refine((p) => p.sandbox || !p.sandboxNetwork, {
    message: "sandboxNetwork only applies to a sandboxed profile (add sandbox: true / --sandbox)",
    path: ["sandboxNetwork"],
  });
export type AgentProfileInput = z.input<typeof agentProfileInput>;

/**
 * A change to a profile. Env values are write-only: `env.set` adds or replaces variables,
 * `env.remove` deletes them by name, and every variable not named keeps its value.
 * Built-in profiles take env changes only (their argv and role follow the code).
 */
export const agentProfileUpdate = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
  name: z.string().trim().min(1).max(80).optional(),
  role: z.enum(ROLES).optional(),
  argv: argvSchema.optional(),
  supportsHooks: z.boolean().optional(),
  env: z.object({ set: envSchema.default({}), remove: z.array(z.string().max(256)).max(256).default([]) }).optional(),
  sandbox: z.boolean().optional(),
  sandboxNetwork: z.boolean().optional(),
});
export type AgentProfileUpdate = z.input<typeof agentProfileUpdate>;

export class AgentProfiles {
  constructor(private readonly store: ProfileStore) {}

  /** Writes the built-ins (their definitions follow the code, so they are refreshed each start; the env the user gave them is kept). */
  async seed(): Promise<void> {
    for (const p of BUILT_IN_PROFILES) {
      const existing = await this.store.find(p.id);
      await this.store.put(existing ? { ...p, env: existing.env } : p);
    }
  }

  async update(raw: AgentProfileUpdate): Promise<ProfileView> {
    const u = agentProfileUpdate.parse(raw);
    const p = await this.get(u.id);
    if (
      p.builtIn &&
      (u.argv ||
        u.role ||
        u.supportsHooks !== undefined ||
        u.name ||
        u.sandbox !== undefined ||
        u.sandboxNetwork !== undefined)
    ) {
      throw new YardError(
        "CONFLICT",
        `${u.id} is a built-in profile: only its environment can be changed (add a custom profile for another command)`,
        { id: u.id },
      );
    }
    const env = { ...p.env };
    for (const name of u.env?.remove ?? []) {
      if (!(name in env))
        throw new YardError("NOT_FOUND", `The profile ${u.id} has no variable ${JSON.stringify(name)}`, {
          id: u.id,
          name,
        });
      delete env[name];
    }
    Object.assign(env, u.env?.set ?? {});
    const next: AgentProfile = {
      ...p,
      name: u.name ?? p.name,
      role: u.role ?? p.role,
      argv: u.argv ?? p.argv,
      supportsHooks: u.supportsHooks ?? p.supportsHooks,
      sandbox: u.sandbox ?? p.sandbox,
      sandboxNetwork: u.sandboxNetwork ?? (u.sandbox === false ? false : p.sandboxNetwork),
      env,
    };
    if (next.sandboxNetwork && !next.sandbox)
      throw new YardError("BAD_PARAMS", "sandboxNetwork only applies to a sandboxed profile", { id: u.id });
    if (u.argv) expandArgv(next.argv);
    return toView(await this.store.put(next));
  }

  async list(): Promise<ProfileView[]> {
    return (await this.store.list()).map(toView);
  }

  async get(id: string): Promise<AgentProfile> {
    const p = await this.store.find(id);
    if (!p) throw new YardError("NOT_FOUND", `No agent profile ${JSON.stringify(id)}`, { id });
    return p;
  }

  /**
   * Removes a custom profile. Refused for built-ins, and while a task that is not finished
   * (`activeTasks` > 0) was started with it.
   */
  async remove(id: string, activeTasks: number): Promise<{ removed: string }> {
    const p = await this.get(id);
    if (p.builtIn) throw new YardError("CONFLICT", `${id} is a built-in profile; it cannot be removed`, { id });
    if (activeTasks > 0)
      throw new YardError(
        "CONFLICT",
        `${activeTasks} running task(s) use the profile ${id}; finish or cancel them first`,
        { id, activeTasks },
      );
    await this.store.delete(id);
    return { removed: id };
  }

  async add(input: AgentProfileInput): Promise<ProfileView> {
    const p = agentProfileInput.parse(input);
    if (await this.store.find(p.id))
      throw new YardError("CONFLICT", `An agent profile ${JSON.stringify(p.id)} already exists`, { id: p.id });
    expandArgv(p.argv); // unknown placeholders fail now, not at the first spawn
    const created = await this.store.create({
      id: p.id,
      name: p.name ?? p.id,
      role: p.role,
      argv: p.argv,
      supportsHooks: p.supportsHooks,
      env: p.env,
      builtIn: false,
      sandbox: p.sandbox,
      sandboxNetwork: p.sandboxNetwork,
    });
    return toView(created);
  }
}
