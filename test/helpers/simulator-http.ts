// Shared helpers of the simulator tests: a fixed now, plain HTTP GETs with the demo key, exact money.
import { numberToMicros } from '../../src/util/decimal.ts';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.ts';

export const NOW = '2026-11-20T12:34:56Z';
export const KEY = 'sim-demo-key';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  body: any; // parsed JSON of any route: tests read it field by field
}

export async function get(sim: Simulator, path: string, key: string | null = KEY): Promise<Answer> {
  const res = await fetch(sim.url + path, { headers: key === null ? {} : { Authorization: `Bearer ${key}` } });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = null;
  }
  return { status: res.status, headers: res.headers, text, body };
}

export async function graphql(sim: Simulator, query: string, auth: 'query' | 'bearer' | 'none' = 'query'): Promise<Answer> {
  const url = sim.url + '/graphql' + (auth === 'query' ? `?api_key=${KEY}` : '');
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(auth === 'bearer' ? { Authorization: `Bearer ${KEY}` } : {}) },
    body: JSON.stringify({ query }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: JSON.parse(text) };
}

/** Sum of a numeric field over records, exactly (micro-dollars). */
export function sumMicros(records: Record<string, unknown>[], field: string): bigint {
  return records.reduce((s, r) => s + numberToMicros(r[field] as number), 0n);
}

export const micros = (x: number): bigint => numberToMicros(x);

export const qs = (params: Record<string, string | number | undefined>): string => {
  const entries = Object.entries(params).filter(([, v]) => v !== undefined) as [string, string | number][];
  return entries.length ? '?' + new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString() : '';
};

/** Quotas no test run reaches (the contract's 60/minute would throttle a suite that asks hundreds of questions). */
export const UNLIMITED = { minute: 1e6, hour: 1e6, day: 1e6 };

/** A simulator at NOW (with `options`) for one test: `fn` gets it, and it is closed after, whatever happens. */
export async function withSimulator(options: SimulatorOptions, fn: (sim: Simulator) => Promise<void>): Promise<void> {
  const sim = await startSimulator({ now: NOW, ...options });
  try {
    await fn(sim);
  } finally {
    await sim.close();
  }
}
