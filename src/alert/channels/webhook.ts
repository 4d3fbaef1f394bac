// A webhook: one POST per event, generic JSON (payload.ts) or a Slack-compatible {text, blocks} message. With a
// secret, each POST is signed: X-Gpuledger-Signature: sha256=HMAC(secret, "<X-Gpuledger-Timestamp>.<body>"), the
// timestamp bound in so a captured request cannot be replayed later. 5xx, 429 and connection errors are retried with
// jittered exponential backoff; another 4xx is the receiver saying no, and is not.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { WebhookChannelConfig } from '../../config/alerts.ts';
import { ConfigError } from '../../util/errors.ts';
import { readSecretEnv, redact } from '../../util/secrets.ts';
import { VERSION } from '../../version.ts';
import { eventPayload } from '../payload.ts';
import type { AlertEvent } from '../types.ts';
import { ChannelError, isSimulated, type Channel, type DeliveryContext } from './channel.ts';

const SEVERITY_EMOJI = { info: ':information_source:', warning: ':warning:', critical: ':rotating_light:' } as const;

function slackBody(e: AlertEvent, simulated: boolean): unknown {
  const head = `${e.event === 'resolved' ? ':white_check_mark:' : SEVERITY_EMOJI[e.severity]} ${simulated ? '[SIMULATED] ' : ''}${e.title}`;
  return {
    text: `${head}\n${e.message}`,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text: `*${head}*` } },
      { type: 'section', text: { type: 'plain_text', text: e.message } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `${e.rule} · ${e.account} · ${e.event} · as of ${e.asOf.toISOString()} · gpuledger ${VERSION}` }],
      },
    ],
  };
}

function isRetryable(status: number): boolean {
  return status >= 500 || status === 429 || status === 408;
}

export function webhookChannel(config: WebhookChannelConfig, env: NodeJS.ProcessEnv = process.env): Channel {
  const name = config.name ?? new URL(config.url).host;
  let secret: string | undefined;
  if (config.secretEnv) {
    secret = readSecretEnv(config.secretEnv, env);
    if (secret === undefined) {
      throw new ConfigError(`webhook '${name}' signs with the secret in ${config.secretEnv}, but that environment variable is empty`);
    }
  }
  const timeoutMs = config.timeoutSeconds * 1000;

  async function post(e: AlertEvent, context: DeliveryContext): Promise<{ attempts: number; error?: string }> {
    const simulated = isSimulated(e, context);
    const body = JSON.stringify(config.format === 'slack' ? slackBody(e, simulated) : eventPayload(e, simulated));
    let lastError = '';
    for (let attempt = 1; attempt <= config.attempts; attempt++) {
      if (attempt > 1) {
        const base = config.retryDelayMs * 2 ** (attempt - 2);
        await sleep(base / 2 + Math.random() * (base / 2));
      }
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': `gpuledger/${VERSION}`,
        'x-gpuledger-event-id': e.eventId,
        'x-gpuledger-timestamp': timestamp,
      };
      if (secret) headers['x-gpuledger-signature'] = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
      try {
        const res = await request(config.url, { method: 'POST', body, headers, headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
        await res.body.dump();
        if (res.statusCode < 300) return { attempts: attempt };
        lastError = `HTTP ${res.statusCode}`;
        if (!isRetryable(res.statusCode)) return { attempts: attempt, error: `${lastError} (not retried)` };
      } catch (err) {
        lastError = (err as Error).message;
      }
    }
    return { attempts: config.attempts, error: lastError };
  }

  return {
    id: `webhook:${name}`,
    minSeverity: config.minSeverity,
    async deliver(events, context) {
      let attempts = 0;
      const failed: string[] = [];
      let error = '';
      for (const e of events) {
        const outcome = await post(e, context);
        attempts = Math.max(attempts, outcome.attempts);
        if (outcome.error) {
          failed.push(e.eventId);
          error = outcome.error;
        }
      }
      if (failed.length > 0) {
        throw new ChannelError(redact(`${failed.length} of ${events.length} event(s) not accepted by ${name}: ${error} after ${attempts} attempt(s)`), attempts, failed);
      }
      return { attempts };
    },
  };
}
