// The load half of billing-api-v2.md §2 "strict on data": a page read by the real client from a real local server,
// spooled as the bytes that arrived, loaded by DuckDB's read_json into a real database file. Amounts must land
// exactly as their JSON text says; a bad record fails the page naming the record and field, and stores nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/index.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import { loadBillingPage } from '../../src/extract/load-billing.ts';
import { createSpool, type Spool } from '../../src/extract/spool.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { manualClock, scriptedServer, type Handler, type ScriptedServer } from '../helpers/scripted-server.ts';
import { openMigratedStore } from '../helpers/view-store.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';


const WINDOW = { startTime: new Date('2026-07-01T10:00:00Z'), endTime: new Date('2026-07-01T12:00:00Z'), bucketSize: 'hour' as const };
const QUERY = '{"startTime":"2026-07-01T10:00:00Z","endTime":"2026-07-01T12:00:00Z","bucketSize":"hour"}';
const H10 = '"startTime":"2026-07-01T10:00:00Z","endTime":"2026-07-01T11:00:00Z"';
const H11 = '"startTime":"2026-07-01T11:00:00Z","endTime":"2026-07-01T12:00:00Z"';
const defs = Object.values(BILLING_SOURCE_DEFS);

let tmp: TempDir;
let store: Store;
let spool: Spool;
let server: ScriptedServer | undefined;
let client: ApiClient | undefined;

beforeAll(async () => {
  tmp = tempDir('gpuledger-load-billing-');
  store = await openMigratedStore(tmp.db); // the worker's migrated template, copied
  spool = createSpool();
});
afterAll(async () => {
  await store?.close();
  spool?.remove();
  tmp?.cleanup();
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = server = undefined;
  await store.run('delete from raw_billing_pods');
  await store.run('delete from _meta_watermarks');
});

function body(records: string[], metadata = ''): Handler {
  const text = `{"records":[${records.map((r) => `{${r}}`).join(',')}],"metadata":{"query":${QUERY}${metadata}}}`;
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
}

/** Read one pods page through the client, spool it and load it: the sync's path for one page. */
async function load(records: string[], metadata = '', into: Store = store) {
  server = await scriptedServer(body(records, metadata));
  client = new ApiClient({ baseUrl: server.url, apiKey: 'sk-load-billing-test', apiKeyEnv: 'K', clock: manualClock(), initialRatePerSecond: 1000 });
  const { recordsJson, ...page } = await client.billing('pods', WINDOW);
  const spooled = { ...page, file: await spool.write(recordsJson) };
  const ctx = {
    store: into, runId: 'test-run', account: 'acct', def: BILLING_SOURCE_DEFS.pods, bucketSize: 'hour' as const,
    serverNow: new Date('2026-07-02T00:00:00Z'), completeThrough: new Date('2026-07-01T00:00:00Z'), lastOfRange: true,
  };
  return loadBillingPage(ctx, spooled, defs).catch((e: unknown) => e as Error);
}

const stored = async () => (await store.one<{ n: string }>('select count(*)::varchar n from raw_billing_pods'))!.n;

describe('loading a billing page with read_json', () => {
  it('stores amounts exactly as their JSON text, from nine integer digits down to one micro-dollar', async () => {
    const result = await load(
      [`${H10},"podId":"p1","totalAmount":999999999.999999,"gpuAmount":999999999.999998,"cpuAmount":0.000001,"diskAmount":0`,
       `${H11},"podId":"p1","totalAmount":0.000001,"gpuAmount":0,"cpuAmount":0,"diskAmount":1e-6`],
      ',"recordCount":2,"uniquePodCount":1,"totals":{"totalAmount":1000000000.000000}',
    );
    if (result instanceof Error) throw result;
    const rows = await store.all<Record<string, string>>(
      `select total_amount::varchar t, gpu_amount::varchar g, cpu_amount::varchar c, disk_amount::varchar d from raw_billing_pods order by start_time`,
    );
    expect(rows).toEqual([
      { t: '999999999.999999', g: '999999999.999998', c: '0.000001', d: '0.000000' },
      { t: '0.000001', g: '0.000000', c: '0.000000', d: '0.000001' },
    ]);
    expect(result.records).toBe(2);
    expect(result.totalMicros).toBe(1_000_000_000_000_000n);
  });

  it('refuses an amount of a billion dollars or more rather than storing it rounded (read_json reads a double)', async () => {
    const result = await load([`${H10},"podId":"p1","totalAmount":123456789012.123455,"gpuAmount":123456789012.123455,"cpuAmount":0,"diskAmount":0`]);
    expect((result as Error).message).toMatch(/records\[0\]\.totalAmount: an amount of \$1e\+9 or more, which cannot be read exactly/);
    expect(await stored()).toBe('0');
  });

  it.each([
    ['a missing amount', `${H10},"podId":"p1","totalAmount":1,"cpuAmount":0,"diskAmount":0`, /records\[1\]\.gpuAmount: missing/],
    ['a missing id', `${H10},"totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`, /records\[1\]\.podId: missing/],
    ['an empty id', `${H10},"podId":"","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`, /records\[1\]\.podId: an empty id/],
    ['a time that is not a date-time', `"startTime":"yesterday","endTime":"2026-07-01T11:00:00Z","podId":"p2","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`, /records\[1\]\.startTime: missing or not an RFC 3339/],
    ['a record outside the answered window', `"startTime":"2026-07-01T12:00:00Z","endTime":"2026-07-01T13:00:00Z","podId":"p2","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`, /records\[1\] lies outside the answered window/],
    ['an amount no DECIMAL(18,6) holds', `${H10},"podId":"p2","totalAmount":1,"gpuAmount":1e20,"cpuAmount":0,"diskAmount":0`, /records\[1\]\.gpuAmount: expected a number/],
    ['an amount that is an object', `${H10},"podId":"p2","totalAmount":1,"gpuAmount":{"usd":1},"cpuAmount":0,"diskAmount":0`, /records\[1\]\.gpuAmount: expected a number/],
  ])('fails the page on %s, naming the record and field, and stores nothing', async (_name, bad, message) => {
    const good = `${H10},"podId":"p1","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`;
    const result = await load([good, bad]);
    expect(result).toBeInstanceOf(Error);
    expect((result as Error).message).toMatch(message);
    expect((result as Error).message).toMatch(/GET \/v2\/billing\/pods \[2026-07-01T10:00:00Z, 2026-07-01T12:00:00Z\) hour/);
    expect(await stored()).toBe('0');
  });

  it('fails when stated totals contradict the records (records were lost), storing nothing', async () => {
    const result = await load([`${H10},"podId":"p1","totalAmount":0.72,"gpuAmount":0.69,"cpuAmount":0,"diskAmount":0.03`], ',"totals":{"totalAmount":1.08}');
    expect((result as Error).message).toMatch(/metadata\.totals\.totalAmount is 1\.08 but the records add up to 0\.72/);
    expect(await stored()).toBe('0');
  });

  it('fails when a stated recordCount contradicts the records', async () => {
    const result = await load([`${H10},"podId":"p1","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`], ',"recordCount":3');
    expect((result as Error).message).toMatch(/metadata\.recordCount is 3 but 1 records arrived/);
  });

  it('loads a page whose unique count is wrong, and says so', async () => {
    const result = await load([`${H10},"podId":"p1","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`], ',"recordCount":1,"uniquePodCount":4');
    if (result instanceof Error) throw result;
    expect(result.warnings[0]).toMatch(/uniquePodCount \(4, records have 1\)/);
    expect(await stored()).toBe('1');
  });

  it('refuses to load while a raw table does not list its declaration\'s columns, naming the table and the column', async () => {
    const other = await openStore({ path: `${tmp.dir}/drift.duckdb`, command: 'test' });
    try {
      // a column no declaration knows, in another source's table than the page's: every source is checked once
      await other.run('alter table raw_billing_serverless add column surcharge_amount decimal(18,6)');
      const result = await load([`${H10},"podId":"p1","totalAmount":1,"gpuAmount":1,"cpuAmount":0,"diskAmount":0`], '', other);
      expect((result as Error).message).toMatch(/^raw_billing_serverless does not match the declaration of the serverless billing source; in the table but not declared: surcharge_amount – add a migration/);
      expect((await other.one<{ n: string }>('select count(*)::varchar n from raw_billing_pods'))!.n).toBe('0');
    } finally {
      await other.close();
    }
  });
});
