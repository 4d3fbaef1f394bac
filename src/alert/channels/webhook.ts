// A webhook: one POST per event, oldest first, generic JSON (payload.ts) or a Slack-compatible {text, blocks}
// message. Every POST carries Idempotency-Key: <event id> (and the JSON payload its idempotency_key), the same on
// every retry and every run, so a receiver that dedupes sees each event once. One POST per event rather than a
// batch: a receiver (PagerDuty, an incident bot, Slack) treats a request as one alert, the key then names exactly
// one event, and a failure part-way leaves a clear line between what got through and what is still owed.
// With a secret, each POST is signed: X-Gpuledger-Signature: sha256=HMAC(secret, "<X-Gpuledger-Timestamp>.<body>"),
// the timestamp bound in so a captured request cannot be replayed later. 5xx, 429, 408 and timeouts are retried
// with jittered exponential backoff inside the channel's time budget; another 4xx is the receiver saying no, and is
// not. A refused connection (nobody listening, no such host) opens the circuit breaker: the events after it are not
// tried this run and wait in the outbox, instead of costing attempts × timeout each. Each POST's outcome is settled
// (journal.ts) before the next POST starts; once the run is told to stop, the POST in flight finishes (its answer is
// recorded) and no retry or further POST starts. A re-send after a kill carries the same Idempotency-Key.
// The URL's credentials go to the receiver and nowhere else (util/url-credentials.ts): a user and password become
// Authorization: Basic (undici would drop them silently), a ?token= stays in the request's URL; the channel is
// named by the host, and any message quoting the URL is redacted.
import { createHmac } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import type { WebhookChannelConfig } from '../../config/alerts.ts';
import { ConfigError } from '../../util/errors.ts';
import { readSecretEnv, redact, registerSecret, registerUrlSecrets } from '../../util/secrets.ts';
import { decodedUrlPart } from '../../util/url-credentials.ts';
import { VERSION } from '../../version.ts';
import { eventPayload } from '../payload.ts';
import type { AlertEvent } from '../types.ts';
import { isConnectionRefusal, isSimulated, stoppedReason, type Channel, type ChannelOutcome, type DeliveryContext } from './channel.ts';

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

type PostOutcome = { attempts: number; error?: string; permanent?: boolean; refused?: boolean; outOfTime?: boolean; stopped?: boolean };

/** Where to POST (the URL without user and password) and the basic auth they stand for, if any. */
function target(url: string): { url: string; authorization: string | undefined } {
  registerUrlSecrets(url);
  const u = new URL(url);
  if (u.username === '' && u.password === '') return { url, authorization: undefined };
  const credentials = Buffer.from(`${decodedUrlPart(u.username)}:${decodedUrlPart(u.password)}`).toString('base64');
  registerSecret(credentials);
  u.username = '';
  u.password = '';
  return { url: u.toString(), authorization: `Basic ${credentials}` };
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
  const to = target(config.url);

  async function post(e: AlertEvent, context: DeliveryContext): Promise<PostOutcome> {
    const simulated = isSimulated(e, context);
    const body = JSON.stringify(config.format === 'slack' ? slackBody(e, simulated) : eventPayload(e, simulated));
    let lastError = '';
    let attempt = 0;
    while (attempt < config.attempts) {
      if (attempt > 0) {
        const base = config.retryDelayMs * 2 ** (attempt - 1);
        const wait = base / 2 + Math.random() * (base / 2);
        if (Date.now() + wait >= context.deadline) return { attempts: attempt, error: `${lastError} (time budget spent)`, outOfTime: true };
        // a stop ends the wait early (the abort is expected, not an error); no retry starts after it
        await sleep(wait, undefined, { signal: context.stop }).catch(() => undefined);
      }
      if (attempt > 0 && context.stop.aborted) return { attempts: attempt, error: `${lastError} (${stoppedReason(context.stop)})`, stopped: true };
      const remaining = context.deadline - Date.now();
      if (remaining <= 0) return { attempts: attempt, error: `${lastError || 'not tried'} (time budget spent)`, outOfTime: true };
      attempt++;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': `gpuledger/${VERSION}`,
        'idempotency-key': e.eventId,
        'x-gpuledger-event-id': e.eventId,
        'x-gpuledger-timestamp': timestamp,
      };
      if (to.authorization) headers.authorization = to.authorization;
      if (secret) headers['x-gpuledger-signature'] = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
      const limit = Math.min(timeoutMs, remaining);
      try {
        const res = await request(to.url, { method: 'POST', body, headers, headersTimeout: limit, bodyTimeout: limit, signal: AbortSignal.timeout(limit) });
        await res.body.dump();
        if (res.statusCode < 300) return { attempts: attempt };
        lastError = `HTTP ${res.statusCode}`;
        if (!isRetryable(res.statusCode)) return { attempts: attempt, error: `${lastError} (not retried)`, permanent: true };
      } catch (err) {
        lastError = (err as Error).message || (err as Error).name;
        if (isConnectionRefusal(err)) return { attempts: attempt, error: lastError, refused: true };
      }
    }
    return { attempts: attempt, error: `${lastError} after ${attempt} attempt(s)` };
  }

  return {
    id: `webhook:${name}`,
    minSeverity: config.minSeverity,
    async deliver(events, context) {
      const outcome: ChannelOutcome = { sent: [], failed: [], untried: [] };
      for (const [i, e] of events.entries()) {
        if (context.stop.aborted) {
          outcome.untried.push(...events.slice(i).map((x) => x.eventId));
          outcome.stopped = stoppedReason(context.stop);
          break;
        }
        const r = await post(e, context);
        if (r.error === undefined) {
          outcome.sent.push(e.eventId);
          await context.settle({ sent: [e.eventId], failed: [], untried: [] });
          continue;
        }
        if (r.attempts > 0) {
          const failed = { eventId: e.eventId, attempts: r.attempts, error: redact(r.error), ...(r.permanent ? { permanent: true } : {}) };
          outcome.failed.push(failed);
          await context.settle({ sent: [], failed: [failed], untried: [] });
        } else outcome.untried.push(e.eventId);
        if (r.refused || r.outOfTime || r.stopped) {
          // keep the order: nothing after an undelivered event is sent before it
          outcome.untried.push(...events.slice(i + 1).map((x) => x.eventId));
          outcome.stopped = r.refused ? 'circuit open after a refused connection' : r.stopped ? stoppedReason(context.stop) : 'time budget spent';
          break;
        }
      }
      return outcome;
    },
  };
}
