// Fault injection for /v2 routes (after authentication): server errors, connection resets, truncated bodies,
// latency, schema drift on a billing route, spurious 429s – and GraphQL being down. Decisions come from a PRNG
// seeded from the simulator's seed, drawn in a fixed order per request, so a run's faults are reproducible.
import { UsageError } from '../../util/errors.ts';
import { BILLING_SOURCES, isBillingSource, type BillingSource } from '../ledger/sources.ts';
import { createRng, saltFor } from '../prng.ts';

export interface FaultSpec {
  /** `5xx=p`: answer 503 or 500 (problem+json) with probability p. */
  serverError?: number;
  /** `reset=p`: reset the connection before or in the middle of the response. */
  reset?: number;
  /** `truncate=p`: send the full Content-Length, then only part of the body, then close. */
  truncate?: number;
  /** `latency=200ms`: delay every response. */
  latencyMs?: number;
  /** `drift=pods` or `drift=pods@p`: on that billing route a required amount field is missing from some records. */
  drift?: { source: BillingSource; probability: number }[];
  /** `429=p`: a rate-limit answer (Retry-After: 1) although quota remains. */
  rateLimit?: number;
  /** `graphql=down`: POST /graphql answers 503. */
  graphqlDown?: boolean;
  /** `lost=p`: a write (pod action, endpoint update) takes effect, then the connection resets before the answer. */
  lostAnswer?: number;
  /** `write429=p`: a write is refused with 429 and Retry-After: 1 and does not take effect. */
  writeRateLimit?: number;
}

export const FAULT_SPEC_HELP = "comma-separated 5xx=P, reset=P, truncate=P, 429=P (P in 0..1), latency=MS (e.g. 200ms, 1.5s), drift=ROUTE[@P] (ROUTE one of aggregate, pods, serverless, network-volumes, endpoints, clusters), graphql=down, and on writes lost=P, write429=P";
/** drift=ROUTE without @P drifts this share of that route's responses. */
const DEFAULT_DRIFT_PROBABILITY = 0.5;

function probability(value: string, name: string, label: string): number {
  const p = Number(value);
  if (value.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1) {
    throw new UsageError(`${label}: ${name} needs a probability between 0 and 1, got '${value}' (accepted: ${FAULT_SPEC_HELP})`);
  }
  return p;
}

function duration(value: string, label: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value.trim());
  if (!m) throw new UsageError(`${label}: latency needs a duration such as 200ms or 1.5s, got '${value}'`);
  return m[2] === 's' ? Number(m[1]) * 1000 : Number(m[1]);
}

/** Parses `5xx=0.1,reset=0.05,latency=200ms,drift=pods@1,graphql=down`; `label` names the option in errors. */
export function parseFaultSpec(spec: string, label = 'faults'): FaultSpec {
  const out: FaultSpec = {};
  for (const part of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq).trim();
    const value = eq < 0 ? '' : part.slice(eq + 1).trim();
    switch (name) {
      case '5xx': out.serverError = probability(value, name, label); break;
      case 'reset': out.reset = probability(value, name, label); break;
      case 'truncate': out.truncate = probability(value, name, label); break;
      case '429': out.rateLimit = probability(value, name, label); break;
      case 'lost': out.lostAnswer = probability(value, name, label); break;
      case 'write429': out.writeRateLimit = probability(value, name, label); break;
      case 'latency': out.latencyMs = duration(value, label); break;
      case 'graphql':
        if (value !== 'down' && value !== 'up') throw new UsageError(`${label}: graphql accepts 'down' or 'up', got '${value}'`);
        out.graphqlDown = value === 'down';
        break;
      case 'drift': {
        const [route = '', p] = value.split('@');
        if (!isBillingSource(route)) {
          throw new UsageError(`${label}: drift needs a billing route (${BILLING_SOURCES.join(', ')}), got '${route}'`);
        }
        (out.drift ??= []).push({ source: route, probability: p === undefined ? DEFAULT_DRIFT_PROBABILITY : probability(p, 'drift', label) });
        break;
      }
      default:
        throw new UsageError(`${label}: unknown fault '${name}' (accepted: ${FAULT_SPEC_HELP})`);
    }
  }
  return out;
}

export type ConnectionFault = 'none' | 'reset-before' | 'reset-mid' | 'truncate';

export interface FaultDecision {
  rateLimit: boolean;
  serverError: 0 | 500 | 503;
  connection: ConnectionFault;
  /** When set, the billing body drops one amount field from some records (uniform draws in [0, 1) pick which). */
  drift: { recordPick: number; fieldPick: number } | null;
}

export interface FaultInjector {
  spec(): FaultSpec;
  set(spec: FaultSpec | string | undefined): void;
  latencyMs(): number;
  graphqlDown(): boolean;
  /** Draws this request's faults: the same sequence of requests draws the same faults. */
  decide(billingSource: BillingSource | null): FaultDecision;
  /** Draws a write's faults from a sequence of their own, so writes never shift the faults of reads. */
  decideWrite(): WriteFaultDecision;
}

export interface WriteFaultDecision {
  rateLimit: boolean;
  lostAnswer: boolean;
}

export function createFaultInjector(seed: number, initial: FaultSpec | string | undefined): FaultInjector {
  const rng = createRng(saltFor(seed, 'faults'));
  const writeRng = createRng(saltFor(seed, 'write-faults'));
  let spec: FaultSpec = {};
  const set = (s: FaultSpec | string | undefined) => {
    spec = s === undefined ? {} : typeof s === 'string' ? parseFaultSpec(s) : { ...s };
  };
  set(initial);
  const draw = (p: number | undefined): boolean => (p === undefined ? false : rng.next() < p);
  return {
    spec: () => spec,
    set,
    latencyMs: () => spec.latencyMs ?? 0,
    graphqlDown: () => spec.graphqlDown === true,
    decideWrite() {
      const drawWrite = (p: number | undefined): boolean => (p === undefined ? false : writeRng.next() < p);
      const rateLimit = drawWrite(spec.writeRateLimit);
      const lostAnswer = drawWrite(spec.lostAnswer);
      return { rateLimit, lostAnswer };
    },
    decide(billingSource) {
      const rateLimit = draw(spec.rateLimit);
      const serverError = draw(spec.serverError) ? (rng.next() < 0.5 ? 503 : 500) : 0;
      const reset = draw(spec.reset) ? (rng.next() < 0.5 ? 'reset-before' : 'reset-mid') : null;
      const truncate = draw(spec.truncate);
      let drift: FaultDecision['drift'] = null;
      for (const d of spec.drift ?? []) {
        const hit = rng.next() < d.probability;
        const recordPick = rng.next();
        const fieldPick = rng.next();
        if (hit && d.source === billingSource && drift === null) drift = { recordPick, fieldPick };
      }
      return { rateLimit, serverError, connection: reset ?? (truncate ? 'truncate' : 'none'), drift };
    },
  };
}
