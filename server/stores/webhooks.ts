// Persistence for webhook deliveries (WebhookDelivery rows) and a project's webhook settings
// (its url, events and HMAC key on the Project row): the only code that reads or writes them.
import type { Db } from "../db";

export interface WebhookConfig {
  projectId: string;
  projectName: string;
  url: string;
  events: string[];
  secret: string;
}

export interface DeliveryRow {
  id: string;
  projectId: string;
  url: string;
  body: string;
  events: number;
  status: string;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

const parseEvents = (s: string | null): string[] => {
  try {
    const v = JSON.parse(s ?? "[]") as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

export class WebhookStore {
  constructor(private readonly db: Db) {}

  async config(projectId: string): Promise<WebhookConfig | null> {
    const p = await this.db.project.findUnique({
      where: { id: projectId },
      select: { id: true, name: true, webhookUrl: true, webhookEvents: true, webhookSecret: true },
    });
    if (!p?.webhookUrl || !p.webhookSecret) return null;
    return {
      projectId: p.id,
      projectName: p.name,
      url: p.webhookUrl,
      events: parseEvents(p.webhookEvents),
      secret: p.webhookSecret,
    };
  }

  async setConfig(projectId: string, c: { url: string; events: string[]; secret: string } | null): Promise<void> {
    await this.db.project.update({
      where: { id: projectId },
      data: c
        ? { webhookUrl: c.url, webhookEvents: JSON.stringify(c.events), webhookSecret: c.secret }
        : { webhookUrl: null, webhookEvents: null, webhookSecret: null },
    });
  }

  /** A project's webhook as callers see it: never the key. */
  async view(projectId: string): Promise<{ url: string; events: string[] } | null> {
    const c = await this.config(projectId);
    return c ? { url: c.url, events: c.events } : null;
  }

  create(
    d: Omit<DeliveryRow, "attempts" | "lastStatus" | "lastError" | "createdAt" | "deliveredAt">,
  ): Promise<DeliveryRow> {
    return this.db.webhookDelivery.create({ data: d });
  }

  update(id: string, changes: Partial<Omit<DeliveryRow, "id" | "projectId" | "createdAt">>): Promise<DeliveryRow> {
    return this.db.webhookDelivery.update({ where: { id }, data: changes });
  }

  pending(): Promise<DeliveryRow[]> {
    return this.db.webhookDelivery.findMany({ where: { status: "pending" }, orderBy: { createdAt: "asc" } });
  }

  list(projectId: string, take: number): Promise<DeliveryRow[]> {
    return this.db.webhookDelivery.findMany({ where: { projectId }, orderBy: { createdAt: "desc" }, take });
  }
}
