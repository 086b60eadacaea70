// The BoardProcess table: the server processes sharing one board's database, each with the
// internal address the others reach it at and the secret they present there (server/peers/).
// One row per process (its instance id), written at its start, touched while it runs, removed at
// a clean shutdown. Both providers' clients have the same shape (server/db/index.ts).
import type { Db } from "../db";
import type { BoardProcess } from "../db/generated/client";

export type BoardProcessRow = BoardProcess;

export class BoardProcessStore {
  constructor(private readonly db: Db) {}

  /** This process (re)started: its address and fresh secret replace whatever its row held. */
  async register(r: { instanceId: string; address: string; secret: string }): Promise<void> {
    const now = new Date();
    await this.db.boardProcess.upsert({
      where: { instanceId: r.instanceId },
      create: { ...r, startedAt: now, seenAt: now },
      update: { address: r.address, secret: r.secret, startedAt: now, seenAt: now },
    });
  }

  /** Still running: touches seenAt. False when the row is gone (another start of the same data dir removed it). */
  async seen(instanceId: string): Promise<boolean> {
    const r = await this.db.boardProcess.updateMany({ where: { instanceId }, data: { seenAt: new Date() } });
    return r.count > 0;
  }

  /** A clean shutdown; only the row with this secret (a newer start of the same data dir keeps its own). */
  async remove(instanceId: string, secret: string): Promise<void> {
    await this.db.boardProcess.deleteMany({ where: { instanceId, secret } });
  }

  /** The process with this instance id, if it was seen since `freshSince`. */
  live(instanceId: string, freshSince: Date): Promise<BoardProcessRow | null> {
    return this.db.boardProcess.findFirst({ where: { instanceId, seenAt: { gte: freshSince } } });
  }
}
