// The board's reads of the Task table: the cards not in Done (every one: they are what people work
// on), the newest cards in Done, and Done page by page, newest first. Done is where a finished task
// goes (merged or discarded, or canceled or rejected: server/core/tasks/columns.ts) and what grows
// without bound; the indices (projectId, disposition, state) and (projectId, updatedAt, id) keep
// both reads proportional to what they return, on SQLite and PostgreSQL alike.
import type { Db } from "../db";
import { Prisma } from "../db/generated/client";
import type { BoardRow } from "./tasks";

/** A task is in Done: the complement of ACTIVE below. */
const DONE = { OR: [{ disposition: { not: null } }, { state: { in: ["canceled", "rejected"] } }] };

/** Where Done pages resume: the last card of the previous page (newest first). */
export interface DoneCursor {
  updatedAt: Date;
  id: string;
}

type Count = number | bigint | null;
type RawBoardRow = Omit<BoardRow, "createdAt" | "updatedAt" | "columnSince" | "diffStat"> & {
  createdAt: unknown;
  updatedAt: unknown;
  columnSince: unknown;
  diffFiles: Count;
  diffAdditions: Count;
  diffDeletions: Count;
};

export class BoardStore {
  constructor(private readonly db: Db) {}

  /**
   * The project's cards: every task not in Done, and the newest `doneLimit` in Done, newest first
   * (with their derived columns and stored diff sizes). Three queries whatever the project's size.
   */
  async rows(projectId: string, doneLimit: number): Promise<BoardRow[]> {
    // One statement (each read through Prisma costs about a millisecond of its own).
    const rows = await this.select(
      Prisma.sql`t."projectId" = ${projectId} AND t."disposition" IS NULL AND t."state" NOT IN ('canceled', 'rejected')`,
      Prisma.sql`t."id" IN (SELECT d."id" FROM "Task" d
        WHERE d."projectId" = ${projectId} AND (d."disposition" IS NOT NULL OR d."state" IN ('canceled', 'rejected'))
        ORDER BY d."updatedAt" DESC, d."id" DESC LIMIT ${doneLimit})`,
    );
    return rows.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || (a.id < b.id ? 1 : -1));
  }

  /** One page of the project's Done cards, newest first, after `before` (the previous page's last). */
  async doneRows(projectId: string, q: { before?: DoneCursor; limit: number }): Promise<BoardRow[]> {
    if (q.limit <= 0) return [];
    const page = await this.db.task.findMany({
      where: {
        projectId,
        AND: [
          DONE,
          q.before
            ? {
                OR: [
                  { updatedAt: { lt: q.before.updatedAt } },
                  { updatedAt: q.before.updatedAt, id: { lt: q.before.id } },
                ],
              }
            : {},
        ],
      },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: q.limit,
      select: { id: true },
    });
    if (page.length === 0) return [];
    const order = new Map(page.map((r, i) => [r.id, i]));
    const rows = await this.select(Prisma.sql`t."id" IN (${Prisma.join(page.map((r) => r.id))})`);
    return rows.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /** How many of the project's tasks are in Done. */
  doneCount(projectId: string): Promise<number> {
    return this.db.task.count({ where: { projectId, ...DONE } });
  }

  /** The card rows matching any of the conditions (each its own SELECT, joined by UNION ALL). */
  private async select(...where: Prisma.Sql[]): Promise<BoardRow[]> {
    const one = (w: Prisma.Sql) => Prisma.sql`
      SELECT t."id", t."title", t."label", t."state", t."disposition", t."agent", t."round", t."branch", t."repoPath", t."contextId", t."paneId", t."evidence", t."autoStartWhen", t."startedBy", t."runner", t."createdAt", t."updatedAt", t."columnSince",
        s."files" AS "diffFiles", s."additions" AS "diffAdditions", s."deletions" AS "diffDeletions",
        (SELECT v."verdict" FROM "Review" v
          WHERE v."taskId" = t."id" AND v."round" = t."round" ORDER BY v."createdAt" DESC, v."id" DESC LIMIT 1) AS "verdict",
        (SELECT v."reviewedCommit" FROM "Review" v
          WHERE v."taskId" = t."id" AND v."round" = t."round" ORDER BY v."createdAt" DESC, v."id" DESC LIMIT 1) AS "reviewedCommit"
      FROM "Task" t LEFT JOIN "TaskDiffStat" s ON s."taskId" = t."id"
      WHERE ${w}`; // unordered: an ORDER BY on updatedAt steers SQLite to the wrong index (callers sort)
    const rows = await this.db.$queryRaw<RawBoardRow[]>`${Prisma.join(where.map(one), " UNION ALL ")}`;
    return rows.map(({ diffFiles, diffAdditions, diffDeletions, ...r }) => ({
      ...r,
      round: Number(r.round),
      createdAt: asDate(r.createdAt),
      updatedAt: asDate(r.updatedAt),
      columnSince: r.columnSince === null ? null : asDate(r.columnSince),
      diffStat:
        diffFiles === null
          ? null
          : { files: Number(diffFiles), additions: Number(diffAdditions), deletions: Number(diffDeletions) },
    }));
  }
}

/**
 * A DATETIME column read through a raw query: the driver hands back a Date, an ISO string (SQLite,
 * with its zone) or epoch ms; PostgreSQL's zoneless text is UTC, as Prisma writes it.
 */
function asDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === "number" || typeof v === "bigint") return new Date(Number(v));
  const s = String(v);
  return new Date(/^\d{4}-\d\d-\d\d[ T][\d:.]+$/.test(s) ? `${s.replace(" ", "T")}Z` : s);
}
