// The people procedures' contract (people.*, audit.list): inputs and outputs, shared by the
// server, the CLI and the UI.
import { z } from "zod";

const personRole = z.enum(["member", "reviewer", "admin"]);
const personName = z
  .string()
  .regex(
    /^[a-z][a-z0-9_-]{1,31}$/,
    "a person's name is 2-32 lowercase letters, digits, - and _, starting with a letter",
  );

export const personView = z.object({
  id: z.string(),
  name: z.string(),
  role: personRole,
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  removedAt: z.string().nullable(),
  /** How many live CLI tokens they have. */
  tokens: z.number().int(),
});

export const inviteView = z.object({ url: z.string(), expiresAt: z.string() });

export const tokenView = z.object({
  id: z.string(),
  name: z.string(),
  person: z.string(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const peopleListInput = z.object({ removed: z.boolean().optional() }).optional();
export const peopleAddInput = z.object({ name: personName, role: personRole });
export const peopleAddOutput = z.object({ person: personView, invite: inviteView });
export const personInput = z.object({ name: personName });
export const setRoleInput = z.object({ name: personName, role: personRole });
export const removeOutput = z.object({ person: personView, sessions: z.number().int(), tokens: z.number().int() });
export const tokenCreateInput = z
  .object({
    name: z.string().min(1).max(64).optional(),
    /** An admin's: a token for this person instead of themselves. */
    user: personName.optional(),
  })
  .optional();
export const tokenCreateOutput = z.object({ token: z.string(), view: tokenView });
export const tokensInput = z.object({ user: personName.optional(), all: z.boolean().optional() }).optional();
export const tokenIdInput = z.object({ id: z.string().regex(/^tok[0-9a-z]{10}$/, "a token id looks like tok…") });

export const auditInput = z
  .object({
    user: z.string().max(64).optional(),
    /** ISO time or a duration back from now: 30m, 12h, 7d. */
    since: z.string().max(40).optional(),
    /** Only events older than this sequence number (paging back: the previous page's `next`). */
    cursor: z.number().int().positive().nullish(),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .optional();

const auditEntry = z.object({
  seq: z.number().int(),
  time: z.string(),
  actor: z.string(),
  type: z.string(),
  taskId: z.string().nullable(),
  paneId: z.string().nullable(),
  /** One line: what they did. */
  summary: z.string(),
});
export const auditOutput = z.object({ entries: z.array(auditEntry), next: z.number().int().nullable() });
