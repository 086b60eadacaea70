// The Web Push procedures' contract (push.key, push.subscribe, push.unsubscribe, push.list): the
// notice kinds a subscription asks for, the browser's subscription as PushSubscription.toJSON()
// gives it, and what a person sees of their own subscriptions (never the keys).
import { z } from "zod";

export const PUSH_KINDS = ["needs_you", "review", "failed", "merged"] as const;
const pushKind = z.enum(PUSH_KINDS);
export type PushKind = z.infer<typeof pushKind>;

/** Most subscriptions one person holds; one more replaces their stalest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

const base64url = (what: string, max: number) =>
  z
    .string()
    .min(1)
    .max(max, `${what} is longer than ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} must be base64url`);

/** The push service's URL for this browser: its host is checked against the allowed push services. */
const pushEndpoint = z.string().trim().min(1).max(2048);

export const pushSubscribeInput = z.object({
  endpoint: pushEndpoint,
  keys: z.object({
    /** The browser's P-256 public key (65 bytes, uncompressed). */
    p256dh: base64url("keys.p256dh", 100),
    /** The browser's 16-byte authentication secret. */
    auth: base64url("keys.auth", 32),
  }),
  /** Which notices this browser gets (default: all of them). */
  kinds: z.array(pushKind).min(1).max(PUSH_KINDS.length).optional(),
  /** Which browser this is, as it describes itself (shown in the list). */
  label: z
    .string()
    .max(200)
    .regex(/^[^\p{Cc}]*$/u, "the label must be one line of text")
    .optional(),
});

export const pushUnsubscribeInput = z.object({ endpoint: pushEndpoint });

export const pushKeyOutput = z.object({
  /** The board's VAPID public key (base64url, 65 bytes): the browser's applicationServerKey. */
  publicKey: z.string(),
});

export const pushSubscriptionView = z.object({
  id: z.string(),
  endpoint: z.string(),
  kinds: z.array(pushKind),
  label: z.string().nullable(),
  createdAt: z.string(),
  lastOkAt: z.string().nullable(),
  /** Failed sends in a row (the subscription is dropped after a few). */
  failures: z.number().int(),
});

export const pushUnsubscribeOutput = z.object({ removed: z.boolean() });
