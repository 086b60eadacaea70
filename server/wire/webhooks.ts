// The project webhook procedures' contract (projects.setWebhook, projects.deliveries).
import { z } from "zod";

const webhookEvent = z.enum(["needs_you", "review", "failed", "merged"]);

export const setWebhookInput = z.object({
  id: z.string().trim().min(1).max(64),
  /** Where notices are posted (http or https); null removes the webhook. */
  url: z
    .string()
    .max(2000)
    .url()
    .refine((u) => /^https?:\/\//i.test(u), "the webhook URL must be http:// or https://")
    .nullable(),
  /** Which notices (default: all of them). */
  events: z.array(webhookEvent).min(1).max(4).optional(),
  /** The HMAC key to sign with (default: a new random one, returned once). */
  secret: z.string().min(16).max(200).optional(),
});

export const setWebhookOutput = z.object({
  webhook: z.object({ url: z.string(), events: z.array(webhookEvent) }).nullable(),
  /** The signing key, only when it was made now (keep it: it is not shown again). */
  secret: z.string().nullable(),
});

export const deliveriesInput = z.object({
  id: z.string().trim().min(1).max(64),
  limit: z.number().int().min(1).max(500).optional(),
});

export const deliveryView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.number().int(),
  status: z.enum(["pending", "delivered", "failed"]),
  attempts: z.number().int(),
  lastStatus: z.number().int().nullable(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  deliveredAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
});
