// Strict on data, lenient on derivable metadata (billing-api-v2.md §2): the client reads a billing answer from a real
// local server, leaves its records as the bytes that arrived (DuckDB reads them; the record checks are SQL, tested in
// test/extract/load-billing.test.ts), parses only the metadata, and says which derivable metadata is missing.
import { describe, expect, it, type TestContext } from 'vitest';
import { ApiClient, ApiResponseError } from '../../src/api/index.ts';
import type { Logger } from '../../src/util/log.ts';
import { captureLogger, json, manualClock, serverFor, type Handler } from '../helpers/scripted-server.ts';

const WINDOW = { startTime: new Date('2026-07-01T10:00:00Z'), endTime: new Date('2026-07-01T12:00:00Z'), bucketSize: 'hour' as const };
const QUERY = { startTime: '2026-07-01T10:00:00Z', endTime: '2026-07-01T12:00:00Z', bucketSize: 'hour', podId: null };
// the contract's own example (§2)
const RECORDS = [
  { startTime: '2026-07-01T10:00:00Z', endTime: '2026-07-01T11:00:00Z', podId: 'p7k2m9x4q1w8e3', totalAmount: 0.72, gpuAmount: 0.69, cpuAmount: 0, diskAmount: 0.03 },
  { startTime: '2026-07-01T11:00:00Z', endTime: '2026-07-01T12:00:00Z', podId: 'p7k2m9x4q1w8e3', totalAmount: 0.36, gpuAmount: 0.345, cpuAmount: 0, diskAmount: 0.015 },
];
const TOTALS = { totalAmount: 1.08, gpuAmount: 1.035, cpuAmount: 0, diskAmount: 0.045 };

/** A client of the test's own, closed when the test ends. */
function clientFor(test: TestContext, url: string, log?: Logger): ApiClient {
  const client = new ApiClient({ baseUrl: url, apiKey: 'sk-billing-page-test', apiKeyEnv: 'K', log, clock: manualClock(), initialRatePerSecond: 1000 });
  test.onTestFinished(() => client.close());
  return client;
}

async function readPods(test: TestContext, body: unknown) {
  const server = await serverFor(test, json(200, body));
  const { log, lines } = captureLogger();
  const client = clientFor(test, server.url, log);
  const page = await client.billing('pods', WINDOW).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  return { page, warnings: lines.filter((l) => l.startsWith('warn')) };
}

describe('billing answers', () => {
  it('reads a complete answer without a warning, leaving its records as the bytes that arrived', async (test) => {
    const body = { records: RECORDS, metadata: { query: QUERY, recordCount: 2, uniquePodCount: 1, totals: TOTALS } };
    const { page, warnings } = await readPods(test, body);
    expect(warnings).toEqual([]);
    if (page instanceof Error) throw page;
    expect(page.read).toBe('split');
    expect(page.recordsJson.toString()).toBe(JSON.stringify(RECORDS));
    expect(page.recordCount).toBe(2);
    expect(page.stated).toEqual({ recordCount: 2, uniqueCount: 1, totals: { totalAmount: '1.080000', gpuAmount: '1.035000', cpuAmount: '0.000000', diskAmount: '0.045000' } });
  });

  it('finds the records when the metadata comes first', async (test) => {
    const text = `{"metadata":${JSON.stringify({ query: QUERY, recordCount: 2, uniquePodCount: 1, totals: TOTALS })},"records":${JSON.stringify(RECORDS)}}`;
    const server = await serverFor(test, raw(text));
    const client = clientFor(test, server.url);
    const page = await client.billing('pods', WINDOW);
    expect(page.read).toBe('split');
    expect(page.recordsJson.toString()).toBe(JSON.stringify(RECORDS));
    expect(page.stated.recordCount).toBe(2);
  });

  it('reads a body of another shape (whitespace, extra keys) the slow way, with the same records', async (test) => {
    const { page } = await readPods(test, { records: RECORDS, extra: true, metadata: { query: QUERY, recordCount: 2, totals: TOTALS } });
    if (page instanceof Error) throw page;
    expect(page.read).toBe('parsed');
    expect(JSON.parse(page.recordsJson.toString())).toEqual(RECORDS);
    expect(page.recordCount).toBe(2);
  });

  it('retries a body whose metadata is cut off, and reads the complete one that follows', async (test) => {
    const whole = JSON.stringify({ records: RECORDS, metadata: { query: QUERY, recordCount: 2, totals: TOTALS } });
    const server = await serverFor(test, raw(whole.slice(0, -20), false), raw(whole));
    const client = clientFor(test, server.url);
    const page = await client.billing('pods', WINDOW);
    expect(page.recordCount).toBe(2);
    expect(server.requests).toHaveLength(2);
  });

  it.for([
    ['totals {}', { query: QUERY, recordCount: 2, uniquePodCount: 1, totals: {} }, /totals\.totalAmount, totals\.gpuAmount, totals\.cpuAmount, totals\.diskAmount/],
    ['totals lacking a field', { query: QUERY, recordCount: 2, uniquePodCount: 1, totals: { ...TOTALS, diskAmount: undefined } }, /metadata totals\.diskAmount missing/],
    ['no totals, count or unique count', { query: QUERY }, /metadata recordCount, totals\.totalAmount.*uniquePodCount missing or unusable/],
  ] as const)('derives %s from the records with one warning', async ([, metadata, warning], test) => {
    const { page, warnings } = await readPods(test, { records: RECORDS, metadata });
    if (page instanceof Error) throw page;
    expect(page.recordCount).toBe(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(warning);
    expect(warnings[0]).toMatch(/GET \/v2\/billing\/pods \[2026-07-01T10:00:00Z, 2026-07-01T12:00:00Z\) hour/);
  });

  it('accepts totals {} on a window with no records', async (test) => {
    const { page, warnings } = await readPods(test, { records: [], metadata: { query: QUERY, recordCount: 0, totals: {} } });
    if (page instanceof Error) throw page;
    expect(page.recordsJson.toString()).toBe('[]');
    expect(page.recordCount).toBe(0);
    expect(warnings).toHaveLength(1);
  });

  it('fails the page on a quoted amount, naming the record and field (read_json would cast it silently)', async (test) => {
    const { page } = await readPods(test, { records: [{ ...RECORDS[0], diskAmount: '0.03' }], metadata: { query: QUERY, totals: {} } });
    expect(page).toBeInstanceOf(ApiResponseError);
    expect((page as Error).message).toMatch(/records\[0\]\.diskAmount: /);
  });

  it('fails the page when metadata.query is missing: the window cannot be derived', async (test) => {
    const { page } = await readPods(test, { records: RECORDS, metadata: { recordCount: 2 } });
    expect(page).toBeInstanceOf(ApiResponseError);
    expect((page as Error).message).toMatch(/metadata\.query: /);
  });
});

/** A body sent as given, with or without its Content-Length (without, a cut body is only visible in its JSON). */
function raw(text: string, withLength = true): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': Buffer.byteLength(text) } : {}) });
    res.end(text);
  };
}
