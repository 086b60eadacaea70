// The agent-profile store: the only code that reads or writes AgentProfile rows. Maps rows to
// AgentProfile values (argv and env are JSON columns).
import type { AgentProfile, Role } from "../core/agents/profiles";
import type { Db } from "../db";

type Row = {
  id: string;
  name: string;
  role: string;
  argv: string;
  supportsHooks: boolean;
  env: string;
  builtIn: boolean;
  sandbox: boolean;
  sandboxNetwork: boolean;
};

const toProfile = (r: Row): AgentProfile => ({
  id: r.id,
  name: r.name,
  role: r.role as Role,
  argv: JSON.parse(r.argv) as string[],
  supportsHooks: r.supportsHooks,
  env: JSON.parse(r.env) as Record<string, string>,
  builtIn: r.builtIn,
  sandbox: r.sandbox,
  sandboxNetwork: r.sandboxNetwork,
});

const toData = (p: AgentProfile) => ({
  name: p.name,
  role: p.role,
  argv: JSON.stringify(p.argv),
  supportsHooks: p.supportsHooks,
  env: JSON.stringify(p.env),
  builtIn: p.builtIn,
  sandbox: p.sandbox,
  sandboxNetwork: p.sandboxNetwork,
});

export class ProfileStore {
  constructor(private readonly db: Db) {}

  async put(p: AgentProfile): Promise<AgentProfile> {
    const data = toData(p);
    return toProfile(
      await this.db.agentProfile.upsert({ where: { id: p.id }, create: { id: p.id, ...data }, update: data }),
    );
  }

  async create(p: AgentProfile): Promise<AgentProfile> {
    return toProfile(await this.db.agentProfile.create({ data: { id: p.id, ...toData(p) } }));
  }

  async list(): Promise<AgentProfile[]> {
    return (await this.db.agentProfile.findMany({ orderBy: [{ builtIn: "desc" }, { id: "asc" }] })).map(toProfile);
  }

  async find(id: string): Promise<AgentProfile | null> {
    const row = await this.db.agentProfile.findUnique({ where: { id } });
    return row ? toProfile(row) : null;
  }

  async delete(id: string): Promise<void> {
    await this.db.agentProfile.delete({ where: { id } });
  }
}
