// Strict on data, lenient on derivable metadata (billing-api-v2.md §2): the client reads a billing answer from a real
// local server and derives missing totals and counts with a warning, but fails on a bad record or a contradiction.
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiResponseError } from '../../src/api/index.ts';
import { captureLogger, json, manualClock, scriptedServer, type ScriptedServer } from './helpers.ts';

const WINDOW = { startTime: new Date('2026-07-01T10:00:00Z'), endTime: new Date('2026-07-01T12:00:00Z'), bucketSize: 'hour' as const };
const QUERY = { startTime: '2026-07-01T10:00:00Z', endTime: '2026-07-01T12:00:00Z', bucketSize: 'hour', podId: null };
// the contract's own example (§2)
const RECORDS = [
  { startTime: '2026-07-01T10:00:00Z', endTime: '2026-07-01T11:00:00Z', podId: 'p7k2m9x4q1w8e3', totalAmount: 0.72, gpuAmount: 0.69, cpuAmount: 0, diskAmount: 0.03 },
  { startTime: '2026-07-01T11:00:00Z', endTime: '2026-07-01T12:00:00Z', podId: 'p7k2m9x4q1w8e3', totalAmount: 0.36, gpuAmount: 0.345, cpuAmount: 0, diskAmount: 0.015 },
];
const TOTALS = { totalAmount: 1.08, gpuAmount: 1.035, cpuAmount: 0, diskAmount: 0.045 };

let server: ScriptedServer | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
});

async function readPods(body: unknown) {
  server = await scriptedServer(json(200, body));
  const { log, lines } = captureLogger();
  client = new ApiClient({ baseUrl: server.url, apiKey: 'sk-billing-page-test', apiKeyEnv: 'K', log, clock: manualClock(), initialRatePerSecond: 1000 });
  const page = await client.billing('pods', WINDOW).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  return { page, warnings: lines.filter((l) => l.startsWith('warn')) };
}

describe('billing answers', () => {
  it('reads a complete answer without a warning and keeps the raw body', async () => {
    const body = { records: RECORDS, metadata: { query: QUERY, recordCount: 2, uniquePodCount: 1, totals: TOTALS } };
    const { page, warnings } = await readPods(body);
    expect(warnings).toEqual([]);
    if (page instanceof Error) throw page;
    expect(page.totals).toEqual({ totalAmount: 1_080_000n, gpuAmount: 1_035_000n, cpuAmount: 0n, diskAmount: 45_000n });
    expect(JSON.parse(page.body)).toEqual(body);
    expect(page.records[1]!.amounts.gpuAmount).toBe(345_000n);
  });

  it.each([
    ['totals {}', { query: QUERY, recordCount: 2, uniquePodCount: 1, totals: {} }, /totals\.totalAmount, totals\.gpuAmount, totals\.cpuAmount, totals\.diskAmount/],
    ['totals lacking a field', { query: QUERY, recordCount: 2, uniquePodCount: 1, totals: { ...TOTALS, diskAmount: undefined } }, /metadata totals\.diskAmount missing/],
    ['no totals, count or unique count', { query: QUERY }, /metadata recordCount, totals\.totalAmount.*uniquePodCount missing or unusable/],
  ])('derives %s from the records with one warning', async (_name, metadata, warning) => {
    const { page, warnings } = await readPods({ records: RECORDS, metadata });
    if (page instanceof Error) throw page;
    expect(page.totals.totalAmount).toBe(1_080_000n);
    expect(page.recordCount).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(warning);
    expect(warnings[0]).toMatch(/GET \/v2\/billing\/pods \[2026-07-01T10:00:00Z, 2026-07-01T12:00:00Z\) hour/);
  });

  it('accepts totals {} on a window with no records', async () => {
    const { page, warnings } = await readPods({ records: [], metadata: { query: QUERY, recordCount: 0, totals: {} } });
    if (page instanceof Error) throw page;
    expect(page.records).toEqual([]);
    expect(page.totals.totalAmount).toBe(0n);
    expect(warnings).toHaveLength(1);
  });

  it.each([
    ['a missing amount', { ...RECORDS[0], gpuAmount: undefined }, /records\[0\]\.gpuAmount: /],
    ['a non-numeric amount', { ...RECORDS[0], diskAmount: '0.03' }, /records\[0\]\.diskAmount: /],
  ])('fails the page on %s in a record, naming the field', async (_name, record, message) => {
    const { page } = await readPods({ records: [record], metadata: { query: QUERY, totals: {} } });
    expect(page).toBeInstanceOf(ApiResponseError);
    expect((page as Error).message).toMatch(message);
  });

  it('fails when stated totals contradict the records (records were lost)', async () => {
    const { page } = await readPods({ records: RECORDS.slice(0, 1), metadata: { query: QUERY, totals: TOTALS } });
    expect(page).toBeInstanceOf(ApiResponseError);
    expect((page as Error).message).toMatch(/metadata\.totals\.totalAmount is 1\.08 but the records add up to 0\.72/);
  });

  it('fails when a stated recordCount contradicts the records', async () => {
    const { page } = await readPods({ records: RECORDS, metadata: { query: QUERY, recordCount: 3, totals: TOTALS } });
    expect((page as Error).message).toMatch(/metadata\.recordCount is 3 but 2 records arrived/);
  });
});
