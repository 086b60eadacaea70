// Persistence for people's Web Push subscriptions (PushSubscription rows: a browser's push
// endpoint, its keys, which notices it wants, how its sends went): the only code that reads or
// writes them. The VAPID key pair lives in the Setting table (stores/settings.ts).
import type { Db } from "../db";

export interface PushRow {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  kinds: string[];
  label: string | null;
  createdAt: Date;
  lastOkAt: Date | null;
  failures: number;
}

type Raw = Omit<PushRow, "kinds"> & { kinds: string };

const parseKinds = (s: string): string[] => {
  try {
    const v = JSON.parse(s) as unknown;
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
  } catch {
    return [];
  }
};

const row = (r: Raw): PushRow => ({ ...r, kinds: parseKinds(r.kinds) });

export class PushStore {
  constructor(private readonly db: Db) {}

  /** A person's subscriptions, oldest first. */
  async ofPerson(userId: string): Promise<PushRow[]> {
    return (await this.db.pushSubscription.findMany({ where: { userId }, orderBy: { createdAt: "asc" } })).map(row);
  }

  /** Every subscription of a person still on the board (the ones a notice may go to). */
  async live(): Promise<PushRow[]> {
    return (await this.db.pushSubscription.findMany({ where: { user: { removedAt: null } } })).map(row);
  }

  async byEndpoint(endpoint: string): Promise<PushRow | null> {
    const r = await this.db.pushSubscription.findUnique({ where: { endpoint } });
    return r ? row(r) : null;
  }

  /**
   * Stores a subscription under its endpoint (a browser that subscribes again, or under another
   * person's session, replaces what was there: keys, owner and kinds), its send health fresh.
   */
  async put(s: {
    id: string;
    userId: string;
    endpoint: string;
    p256dh: string;
    auth: string;
    kinds: string[];
    label: string | null;
  }): Promise<PushRow> {
    const data = {
      userId: s.userId,
      p256dh: s.p256dh,
      auth: s.auth,
      kinds: JSON.stringify(s.kinds),
      label: s.label,
      failures: 0,
    };
    return row(
      await this.db.pushSubscription.upsert({
        where: { endpoint: s.endpoint },
        create: { id: s.id, endpoint: s.endpoint, ...data },
        update: data,
      }),
    );
  }

  /** Removes a subscription by endpoint, only when it is this person's; whether one was removed. */
  async removeOwn(userId: string, endpoint: string): Promise<boolean> {
    return (await this.db.pushSubscription.deleteMany({ where: { userId, endpoint } })).count > 0;
  }

  async remove(id: string): Promise<void> {
    await this.db.pushSubscription.deleteMany({ where: { id } });
  }

  /** A send the push service accepted: the failure count starts again. */
  async sent(id: string, at: Date): Promise<void> {
    await this.db.pushSubscription.updateMany({ where: { id }, data: { lastOkAt: at, failures: 0 } });
  }

  /** A failed send; returns the consecutive failures now counted (0: the row is gone). */
  async failed(id: string): Promise<number> {
    await this.db.pushSubscription.updateMany({ where: { id }, data: { failures: { increment: 1 } } });
    return (await this.db.pushSubscription.findUnique({ where: { id }, select: { failures: true } }))?.failures ?? 0;
  }
}
