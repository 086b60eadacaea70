// The runners' contract (runners.*, `yard runner`): machines agents may run on, reached over SSH.
// Every field that reaches ssh's argv is checked here: a name, a user and a host that cannot be
// read as an option (no leading "-"), a port, absolute paths.
import { z } from "zod";
import { commandOutcome } from "./repo-config";

export const runnerName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,31}$/, "a runner's name is 1-32 lowercase letters, digits and -, not starting with -");

export const runnerLabel = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,31}$/, "labels are lowercase letters, digits, . _ -");

const user = /^[a-z_][a-z0-9_.-]{0,31}$/i;
const hostname = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const ipv6 = /^\[[0-9a-f:.]{2,45}\]$/i;

/** USER@HOST[:PORT] (an IPv6 host in brackets), parsed; refuses anything ssh could read as an option. */
const sshTarget = z
  .string()
  .max(300)
  .transform((s, ctx) => {
    const m = /^([^@\s]+)@(\[[^\]]+\]|[^:@\s]+)(?::(\d{1,5}))?$/.exec(s);
    const port = m?.[3] === undefined ? 22 : Number(m[3]);
    if (!m || !user.test(m[1]!) || !(hostname.test(m[2]!) || ipv6.test(m[2]!)) || port < 1 || port > 65535) {
      ctx.addIssue({
        code: "custom",
        message: "--ssh must be USER@HOST or USER@HOST:PORT (e.g. dev@build-1.internal:2222)",
      });
      return z.NEVER;
    }
    return { user: m[1]!, host: m[2]!.replace(/^\[|\]$/g, ""), port };
  });

const absolutePath = z
  .string()
  .max(1024)
  .regex(/^\/[^\0\n]*$/, "must be an absolute path");

export const runnerAddInput = z.object({
  name: runnerName,
  ssh: sshTarget,
  identityFile: absolutePath.optional(),
  knownHostsFile: absolutePath.optional(),
  labels: z.array(runnerLabel).max(16).default([]),
  capacity: z.number().int().min(1).max(64).default(4),
});

export const runnerInput = z.object({ name: runnerName });

export const runnerTrustInput = z.object({
  name: runnerName,
  fingerprint: z
    .string()
    .regex(/^SHA256:[A-Za-z0-9+/]{43}=?$/, "a fingerprint looks like SHA256: and 43 base64 characters"),
});

export const checkResult = z.object({
  ok: z.boolean(),
  /** The runner's `node --version` when it answered. */
  node: z.string().nullable(),
  at: z.string(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  /** The pane host kit this board needs there (`yard runner install`), and whether it is installed. */
  kit: z.object({ name: z.string(), installed: z.boolean() }).nullable().default(null),
});

export const installResult = z.object({
  name: z.string(),
  kit: z.string(),
  dir: z.string(),
  files: z.number().int(),
  bytes: z.number().int(),
  /** The kit was there already: nothing was copied. */
  already: z.boolean(),
});

export const runnerView = z.object({
  name: z.string(),
  user: z.string(),
  host: z.string(),
  port: z.number().int(),
  identityFile: z.string().nullable(),
  knownHostsFile: z.string().nullable(),
  labels: z.array(z.string()),
  capacity: z.number().int(),
  /** The host key fingerprint a person trusted (null: none yet). */
  fingerprint: z.string().nullable(),
  lastCheck: checkResult.nullable(),
  createdAt: z.string(),
});
export type RunnerView = z.infer<typeof runnerView>;
export type CheckResult = z.infer<typeof checkResult>;

/** What a runner reports of a task's teardown there (its commands' outcomes, its output's tail). */
export const runnerTeardown = z.object({
  skipped: z.string().max(500).nullable(),
  commands: z.array(commandOutcome).max(100),
  tail: z.string().max(64 * 1024),
});
export type RunnerTeardown = z.infer<typeof runnerTeardown>;
