// The `alerts` section's channels – where alert events go (stdout, an NDJSON file, webhooks, email) – and the outbox
// that retries what a channel did not take (src/alert/outbox.ts). Apart from the rules (alerts.ts): one job a file.
import { z } from 'zod';

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export type Severity = (typeof SEVERITIES)[number];

const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name');

const channelBase = {
  minSeverity: z.enum(SEVERITIES).default('info').describe('Only events of this severity or higher go to this channel.'),
};

export const stdoutChannelSchema = z.object({ type: z.literal('stdout'), ...channelBase }).strict();

export const fileChannelSchema = z
  .object({
    type: z.literal('file'),
    path: z.string().min(1).optional().describe('NDJSON file the events are appended to; default <outDir>/alerts.ndjson.'),
    ...channelBase,
  })
  .strict();

export const webhookChannelSchema = z
  .object({
    type: z.literal('webhook'),
    name: z.string().min(1).optional().describe('A name for logs and the delivery record; default the URL\'s host.'),
    url: z.url().describe('Where events are POSTed. Put no secret in it: use secretEnv for signing.'),
    format: z.enum(['json', 'slack']).default('json').describe('json: one gpuledger event per POST; slack: a Slack-compatible {text, blocks} message.'),
    secretEnv: envName
      .optional()
      .describe('Environment variable holding an HMAC key: each POST carries X-Gpuledger-Signature: sha256=<hex of HMAC(timestamp + "." + body)>.'),
    attempts: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(4)
      .describe('Tries per event in one run; 5xx, 429 and timeouts are retried within the channel\'s time budget. A refused connection is not: the channel waits for the next run.'),
    retryDelayMs: z.number().int().min(0).max(60_000).default(1000).describe('Wait before the second try; doubles each time (with jitter).'),
    timeoutSeconds: z.number().positive().max(120).default(10),
    ...channelBase,
  })
  .strict();

export const emailChannelSchema = z
  .object({
    type: z.literal('email'),
    to: z.array(z.string().min(3)).min(1).describe('Recipients; the smtp section says how mail leaves.'),
    ...channelBase,
  })
  .strict();

export const channelSchema = z.discriminatedUnion('type', [stdoutChannelSchema, fileChannelSchema, webhookChannelSchema, emailChannelSchema]);
export type ChannelConfig = z.infer<typeof channelSchema>;
export type WebhookChannelConfig = z.infer<typeof webhookChannelSchema>;

export const outboxSchema = z
  .object({
    maxAgeHours: z
      .number()
      .positive()
      .max(24 * 90)
      .default(72)
      .describe('An event a channel has not taken after this many hours is given up on for that channel, with the reason recorded; until then every run tries it again, oldest first.'),
    budgetSeconds: z
      .number()
      .positive()
      .max(600)
      .default(30)
      .describe('Time each channel gets per run (channels deliver at the same time); what does not fit stays queued for the next run.'),
  })
  .strict()
  .describe('The per-channel outbox: undelivered alert events are retried on later runs.');
export type OutboxConfig = z.infer<typeof outboxSchema>;
