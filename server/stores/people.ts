// Persistence for the people of a board (User rows), their personal CLI tokens (UserToken) and
// their invites (UserInvite): the only code that reads or writes them. Secrets are never here,
// only their SHA-256 hashes.
import type { Db } from "../db";

export interface UserRow {
  id: string;
  name: string;
  role: string;
  createdAt: Date;
  createdBy: string | null;
  removedAt: Date | null;
}

export interface TokenRow {
  id: string;
  userId: string;
  name: string;
  hash: string;
  createdAt: Date;
  createdBy: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface InviteRow {
  id: string;
  userId: string;
  codeHash: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

export class PeopleStore {
  constructor(private readonly db: Db) {}

  users(): Promise<UserRow[]> {
    return this.db.user.findMany({ orderBy: { createdAt: "asc" } });
  }

  /** Every live token (not revoked) of people not removed: what the directory keeps in memory. */
  liveTokens(): Promise<TokenRow[]> {
    return this.db.userToken.findMany({ where: { revokedAt: null, user: { removedAt: null } } });
  }

  userByName(name: string): Promise<UserRow | null> {
    return this.db.user.findUnique({ where: { name } });
  }

  /** A new person (or a removed one of that name back, with a fresh role). */
  async upsertUser(u: { id: string; name: string; role: string; createdBy: string | null }): Promise<UserRow> {
    return this.db.user.upsert({
      where: { name: u.name },
      create: u,
      update: { role: u.role, removedAt: null, createdBy: u.createdBy },
    });
  }

  setRole(id: string, role: string): Promise<UserRow> {
    return this.db.user.update({ where: { id }, data: { role } });
  }

  /**
   * Marks the person removed, revokes their tokens and unused invites and deletes their push
   * subscriptions (no notice reaches their browsers any more), in one transaction.
   */
  async remove(id: string, at: Date): Promise<void> {
    await this.db.$transaction([
      this.db.userToken.updateMany({ where: { userId: id, revokedAt: null }, data: { revokedAt: at } }),
      this.db.userInvite.updateMany({ where: { userId: id, usedAt: null }, data: { usedAt: at } }),
      this.db.pushSubscription.deleteMany({ where: { userId: id } }),
      this.db.user.update({ where: { id }, data: { removedAt: at } }),
    ]);
  }

  createToken(t: {
    id: string;
    userId: string;
    name: string;
    hash: string;
    createdBy: string | null;
  }): Promise<TokenRow> {
    return this.db.userToken.create({ data: t });
  }

  tokens(userId?: string): Promise<TokenRow[]> {
    return this.db.userToken.findMany({ where: userId ? { userId } : {}, orderBy: { createdAt: "asc" } });
  }

  token(id: string): Promise<TokenRow | null> {
    return this.db.userToken.findUnique({ where: { id } });
  }

  revokeToken(id: string, at: Date): Promise<TokenRow> {
    return this.db.userToken.update({ where: { id }, data: { revokedAt: at } });
  }

  touchToken(id: string, at: Date): Promise<unknown> {
    return this.db.userToken.update({ where: { id }, data: { lastUsedAt: at } });
  }

  createInvite(i: { id: string; userId: string; codeHash: string; expiresAt: Date }): Promise<InviteRow> {
    return this.db.userInvite.create({ data: i });
  }

  /**
   * Uses the invite with this code hash if it is unused and unexpired and its person is still on
   * the board: at most one caller ever gets it (the update is conditional on usedAt being null).
   */
  async redeemInvite(codeHash: string, now: Date): Promise<UserRow | null> {
    const invite = await this.db.userInvite.findUnique({ where: { codeHash }, include: { user: true } });
    if (!invite || invite.usedAt || invite.expiresAt <= now || invite.user.removedAt) return null;
    const used = await this.db.userInvite.updateMany({ where: { id: invite.id, usedAt: null }, data: { usedAt: now } });
    return used.count === 1 ? invite.user : null;
  }
}
