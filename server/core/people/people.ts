// The people of a board and how they sign in. Owns: the roles (member < reviewer < admin) and
// what each may do beyond the one below (the API's gate table names the role each procedure
// needs), adding people with a one-time invite link, changing roles, removing people (every
// session, token and invite of theirs dies at once), personal CLI tokens (shown once, stored as a
// hash), and answering "who is this token / session?" synchronously from memory (the API and
// socket edges ask on every request). The install token is the person `owner`, an admin who
// cannot be removed or demoted. Framework-free: persistence through PeopleStore; sessions through
// the SessionPort (the browser session store).
import { randomBytes } from "node:crypto";
import { YardError } from "../errors";
import { newId } from "../ids";
import type { PeopleStore, UserRow } from "../../stores/people";
import { hashSecret } from "../../security/token";

const PERSON_ROLES = ["member", "reviewer", "admin"] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];

export interface Person {
  id: string;
  name: string;
  role: PersonRole;
}

export const OWNER: Person = { id: "usrowner", name: "owner", role: "admin" };

/** Whether `role` has at least the rights of `needed`. */
export const roleAtLeast = (role: PersonRole, needed: PersonRole): boolean =>
  PERSON_ROLES.indexOf(role) >= PERSON_ROLES.indexOf(needed);

/** Lowercase, starts with a letter, 2-32 characters; not `owner`/`user`, nor shaped like a pane id. */
const PERSON_NAME = /^[a-z][a-z0-9_-]{1,31}$/;
const RESERVED = new Set(["owner", "user", "users", "admin", "system", "you"]);
const TOKEN_PREFIX = "yu_";
const INVITE_TTL_MS = 7 * 24 * 3600_000;

/** What the people service needs from the browser sessions. */
export interface SessionPort {
  /** Revokes every session of this person; returns how many. */
  revokePerson(personId: string): number;
}

export interface PersonView {
  id: string;
  name: string;
  role: PersonRole;
  createdAt: string;
  createdBy: string | null;
  removedAt: string | null;
  tokens: number;
}

export interface TokenView {
  id: string;
  name: string;
  person: string;
  createdAt: string;
  createdBy: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface Invite {
  url: string;
  expiresAt: string;
}

const asRole = (r: string): PersonRole =>
  (PERSON_ROLES as readonly string[]).includes(r) ? (r as PersonRole) : "member";

export class People {
  private readonly byId = new Map<string, Person>([[OWNER.id, OWNER]]);
  private readonly tokensByHash = new Map<string, { id: string; personId: string }>();
  private readonly lastUse = new Map<string, number>();
  private readonly revokedListeners = new Set<(personId: string, tokenId: string | null) => void>();

  constructor(
    private readonly deps: {
      store: PeopleStore;
      sessions: SessionPort;
      /** The board's address, for invite links. */
      baseUrl: () => string;
      now?: () => number;
    },
  ) {}

  private now() {
    return new Date(this.deps.now?.() ?? Date.now());
  }

  /** Reads everyone and every live token into memory; records the owner on a new board. */
  async load(): Promise<void> {
    if (!(await this.deps.store.userByName(OWNER.name)))
      await this.deps.store.upsertUser({ ...OWNER, createdBy: null });
    const [users, tokens] = await Promise.all([this.deps.store.users(), this.deps.store.liveTokens()]);
    this.byId.clear();
    for (const u of users) if (!u.removedAt) this.byId.set(u.id, this.toPerson(u));
    this.byId.set(OWNER.id, OWNER);
    this.tokensByHash.clear();
    for (const t of tokens) this.tokensByHash.set(t.hash, { id: t.id, personId: t.userId });
  }

  private toPerson(u: UserRow): Person {
    return u.name === OWNER.name ? OWNER : { id: u.id, name: u.name, role: asRole(u.role) };
  }

  /** A person on the board, by id (sessions carry it); null once removed. */
  person(id: string): Person | null {
    return this.byId.get(id) ?? null;
  }

  /** The person a personal token stands for, or null (unknown, revoked, or its person removed). */
  byToken(token: string): { person: Person; tokenId: string } | null {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
    const t = this.tokensByHash.get(hashSecret(token));
    const person = t ? this.person(t.personId) : null;
    if (!t || !person) return null;
    return { person, tokenId: t.id };
  }

  /** Records that a token was used (its last-used time, written at most once a minute per token). */
  used(tokenId: string): void {
    const now = this.now();
    const last = this.lastUse.get(tokenId) ?? 0;
    if (now.getTime() - last < 60_000) return;
    this.lastUse.set(tokenId, now.getTime());
    void this.deps.store.touchToken(tokenId, now).catch(() => {});
  }

  /** Called when a person is removed (tokenId null) or one token revoked: live sockets close. */
  onRevoked(listener: (personId: string, tokenId: string | null) => void): () => void {
    this.revokedListeners.add(listener);
    return () => this.revokedListeners.delete(listener);
  }

  async list(opts: { removed?: boolean } = {}): Promise<PersonView[]> {
    const [users, tokens] = await Promise.all([this.deps.store.users(), this.deps.store.liveTokens()]);
    return users
      .filter((u) => opts.removed || !u.removedAt)
      .map((u) => this.view(u, tokens.filter((t) => t.userId === u.id).length));
  }

  private view(u: UserRow, tokens: number): PersonView {
    return {
      id: u.id,
      name: u.name,
      role: u.name === OWNER.name ? OWNER.role : asRole(u.role),
      createdAt: u.createdAt.toISOString(),
      createdBy: u.createdBy,
      removedAt: u.removedAt?.toISOString() ?? null,
      tokens,
    };
  }

  /** How many live tokens a person has (the in-memory map holds exactly those). */
  private liveTokens(personId: string): number {
    return [...this.tokensByHash.values()].filter((t) => t.personId === personId).length;
  }

  /** Adds a person (or brings a removed one back) and makes their one-time invite link. */
  async add(input: { name: string; role: PersonRole }, by: Person): Promise<{ person: PersonView; invite: Invite }> {
    this.checkName(input.name);
    const existing = await this.deps.store.userByName(input.name);
    if (existing && !existing.removedAt)
      throw new YardError(
        "CONFLICT",
        `${input.name} is already on this board (role ${existing.role}); yard user invite ${input.name} makes a new link`,
        {
          name: input.name,
        },
      );
    const u = await this.deps.store.upsertUser({
      id: existing?.id ?? newId("usr"),
      name: input.name,
      role: input.role,
      createdBy: by.name,
    });
    this.byId.set(u.id, this.toPerson(u));
    const invite = await this.newInvite(u.id);
    return { person: this.view(u, this.liveTokens(u.id)), invite };
  }

  /** A fresh one-time invite link for someone already on the board (the owner signs in with the login link). */
  async invite(name: string): Promise<Invite> {
    const u = await this.live(name);
    if (u.name === OWNER.name)
      throw new YardError("BAD_PARAMS", "The owner signs in with the board's login link (yard status prints it)", {
        name,
      });
    return this.newInvite(u.id);
  }

  private async newInvite(userId: string): Promise<Invite> {
    const code = randomBytes(32).toString("base64url");
    const expiresAt = new Date(this.now().getTime() + INVITE_TTL_MS);
    await this.deps.store.createInvite({ id: newId("inv"), userId, codeHash: hashSecret(code), expiresAt });
    return { url: `${this.deps.baseUrl()}/invite?code=${code}`, expiresAt: expiresAt.toISOString() };
  }

  /** The person an invite code signs in, using it up; null when it is unknown, used or expired. */
  async redeem(code: string): Promise<Person | null> {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(code)) return null;
    const u = await this.deps.store.redeemInvite(hashSecret(code), this.now());
    return u ? this.person(u.id) : null;
  }

  async setRole(name: string, role: PersonRole): Promise<PersonView> {
    const u = await this.live(name);
    if (u.name === OWNER.name) throw new YardError("BAD_PARAMS", "The owner is always an admin", { name });
    const row = await this.deps.store.setRole(u.id, role);
    this.byId.set(u.id, { id: u.id, name: u.name, role });
    return this.view(row, this.liveTokens(u.id));
  }

  /** Removes a person: every session, token and unused invite of theirs is revoked at once, and their push subscriptions deleted. */
  async remove(name: string, by: Person): Promise<{ person: PersonView; sessions: number; tokens: number }> {
    const u = await this.live(name);
    if (u.name === OWNER.name) throw new YardError("BAD_PARAMS", "The owner cannot be removed", { name });
    if (u.id === by.id) throw new YardError("BAD_PARAMS", "You cannot remove yourself; ask another admin", { name });
    const tokens = [...this.tokensByHash].filter(([, t]) => t.personId === u.id);
    const at = this.now();
    await this.deps.store.remove(u.id, at);
    this.byId.delete(u.id);
    for (const [hash] of tokens) this.tokensByHash.delete(hash);
    const sessions = this.deps.sessions.revokePerson(u.id);
    for (const l of this.revokedListeners) l(u.id, null);
    return { person: this.view({ ...u, removedAt: at }, 0), sessions, tokens: tokens.length };
  }

  /** A personal CLI token for `for` (default: the caller); only an admin makes one for someone else. Shown once. */
  async createToken(input: { name?: string; for?: string }, by: Person): Promise<{ token: string; view: TokenView }> {
    const owner = input.for ? await this.live(input.for) : null;
    const person = owner ? this.person(owner.id)! : by;
    if (person.id !== by.id && by.role !== "admin")
      throw new YardError("FORBIDDEN", "Only an admin may create a token for someone else", { role: by.role });
    const token = TOKEN_PREFIX + randomBytes(32).toString("base64url");
    const row = await this.deps.store.createToken({
      id: newId("tok"),
      userId: person.id,
      name: input.name ?? `token-${new Date().toISOString().slice(0, 10)}`,
      hash: hashSecret(token),
      createdBy: by.name,
    });
    this.tokensByHash.set(row.hash, { id: row.id, personId: person.id });
    return { token, view: this.tokenView(row, person.name) };
  }

  /** The caller's tokens; an admin may list anyone's (`of`), or everyone's (`all`). */
  async tokens(opts: { of?: string; all?: boolean }, by: Person): Promise<TokenView[]> {
    if ((opts.of && opts.of !== by.name) || opts.all) {
      if (by.role !== "admin")
        throw new YardError("FORBIDDEN", "Only an admin may list other people's tokens", { role: by.role });
    }
    const users = await this.deps.store.users();
    const names = new Map(users.map((u) => [u.id, u.name]));
    const of = opts.all ? undefined : opts.of ? (await this.live(opts.of)).id : by.id;
    return (await this.deps.store.tokens(of)).map((t) => this.tokenView(t, names.get(t.userId) ?? t.userId));
  }

  /** Revokes a token: the caller's own, or (an admin) anyone's. */
  async revokeToken(id: string, by: Person): Promise<TokenView> {
    const t = await this.deps.store.token(id);
    if (!t) throw new YardError("NOT_FOUND", `No token ${id}`, { tokenId: id });
    if (t.userId !== by.id && by.role !== "admin")
      throw new YardError("FORBIDDEN", "Only an admin may revoke someone else's token", { role: by.role });
    const row = t.revokedAt ? t : await this.deps.store.revokeToken(id, this.now());
    this.tokensByHash.delete(t.hash);
    for (const l of this.revokedListeners) l(t.userId, id);
    const owner = this.person(t.userId) ?? (await this.deps.store.users()).find((u) => u.id === t.userId);
    return this.tokenView(row, owner?.name ?? t.userId);
  }

  private tokenView(
    t: {
      id: string;
      name: string;
      createdAt: Date;
      createdBy: string | null;
      lastUsedAt: Date | null;
      revokedAt: Date | null;
    },
    person: string,
  ): TokenView {
    return {
      id: t.id,
      name: t.name,
      person,
      createdAt: t.createdAt.toISOString(),
      createdBy: t.createdBy,
      lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
      revokedAt: t.revokedAt?.toISOString() ?? null,
    };
  }

  private checkName(name: string) {
    if (!PERSON_NAME.test(name) || RESERVED.has(name) || /^pane[0-9a-z]{10}$/.test(name))
      throw new YardError(
        "BAD_PARAMS",
        `${JSON.stringify(name)} cannot be a person's name: 2-32 lowercase letters, digits, - and _, starting with a letter (owner, user and admin are taken)`,
        { name },
      );
  }

  private async live(name: string): Promise<UserRow> {
    const u = await this.deps.store.userByName(name);
    if (!u || u.removedAt)
      throw new YardError("NOT_FOUND", `No person named ${name} on this board (yard user list)`, { name });
    return u;
  }
}
