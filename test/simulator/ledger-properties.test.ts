// The money invariants (billing-api-v2.md §2, assumed there, guaranteed here) over random windows and bucket sizes:
// bucket sizes agree, totals are sums of records, record totals are sums of components, the aggregate is the sum of
// the family routes, and HTTP answers equal the ledger.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBuckets, floorToBucket, type BucketSize } from '../../src/util/buckets.ts';
import { startSimulator, SOURCE_FIELDS, SOURCES, type BillingSource, type Simulator } from '../../src/simulator/index.ts';
import { get, micros, NOW, qs, sumMicros, UNLIMITED } from '../helpers/simulator-http.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: NOW, quotas: UNLIMITED });
});
afterAll(() => sim.close());

const HOUR = 3_600_000;
const FAMILIES: { source: BillingSource; route: string }[] = (['pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'] as const).map((s) => ({ source: s, route: SOURCES[s].route }));
type Rec = Record<string, number | string>;

/** A window of whole hours between history start and two days after now. */
const windowArb = (maxHours: number) =>
  fc.record({
    startOffset: fc.integer({ min: -130 * 24, max: 24 }),
    hours: fc.integer({ min: 1, max: maxHours }),
  }).map(({ startOffset, hours }) => {
    const start = Math.floor(new Date(NOW).getTime() / HOUR) * HOUR + startOffset * HOUR;
    return { start: new Date(start), end: new Date(start + hours * HOUR) };
  });

const fetchRoute = async (route: string, start: Date, end: Date, bucketSize: BucketSize) => {
  const a = await get(sim, route + qs({ startTime: start.toISOString(), endTime: end.toISOString(), bucketSize }));
  expect(a.status).toBe(200);
  return a.body as { records: Rec[]; metadata: { totals: Record<string, number> } };
};

describe('money invariants', () => {
  it('gives the same money for every bucket size over a window aligned to all of them', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<BucketSize>('week', 'month'), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.constantFrom(...FAMILIES, { source: 'aggregate' as const, route: '/v2/billing' }), async (coarse, back, length, { source, route }) => {
        const end = addBuckets(floorToBucket(new Date(NOW), coarse), coarse, 1 - back);
        const start = addBuckets(end, coarse, -length);
        const expected = sim.ledger.sum({ source, start, end }).totalAmount;
        for (const size of ['hour', 'day', coarse] as const) {
          const body = await fetchRoute(route, start, end, size);
          expect(micros(body.metadata.totals.totalAmount!), `${route} ${size}`).toBe(expected);
        }
      }),
      { numRuns: 8 },
    );
  });

  it('totals are the sums of records, and a record total is the sum of its components', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb(24 * 40), fc.constantFrom<BucketSize>('hour', 'day', 'week', 'month'), fc.constantFrom(...FAMILIES, { source: 'aggregate' as const, route: '/v2/billing' }), async ({ start, end }, size, { source, route }) => {
        const body = await fetchRoute(route, start, end, size);
        const fields = SOURCES[source].fields;
        for (const f of fields) expect(micros(body.metadata.totals[f]!)).toBe(sumMicros(body.records, f));
        if (fields.length > 1) {
          for (const r of body.records) expect(micros(r.totalAmount as number)).toBe(fields.slice(1).reduce((s, f) => s + micros(r[f] as number), 0n));
        }
      }),
      { numRuns: 20 },
    );
  });

  it('the aggregate equals the sum of the family routes, bucket by bucket', async () => {
    const mapping: Record<string, [BillingSource, string]> = {
      podGpuAmount: ['pods', 'gpuAmount'], podCpuAmount: ['pods', 'cpuAmount'], podDiskAmount: ['pods', 'diskAmount'],
      serverlessGpuAmount: ['serverless', 'gpuAmount'], serverlessCpuAmount: ['serverless', 'cpuAmount'],
      serverlessDiskAmount: ['serverless', 'diskAmount'], serverlessFeeAmount: ['serverless', 'feeAmount'],
      storageStandardAmount: ['network-volumes', 'standardAmount'], storageHighPerformanceAmount: ['network-volumes', 'highPerformanceAmount'],
      endpointAmount: ['endpoints', 'totalAmount'],
      clusterGpuAmount: ['clusters', 'gpuAmount'], clusterDiskAmount: ['clusters', 'diskAmount'], clusterNetworkingAmount: ['clusters', 'networkingAmount'],
    };
    await fc.assert(
      fc.asyncProperty(windowArb(24 * 20), fc.constantFrom<BucketSize>('hour', 'day', 'week'), async ({ start, end }, size) => {
        const aggregate = await fetchRoute('/v2/billing', start, end, size);
        const families = Object.fromEntries(await Promise.all(FAMILIES.map(async (f) => [f.source, (await fetchRoute(f.route, start, end, size)).records] as const)));
        for (const record of aggregate.records) {
          for (const [field, [source, familyField]] of Object.entries(mapping)) {
            const inBucket = (families[source] as Rec[]).filter((r) => r.startTime === record.startTime);
            expect(micros(record[field] as number), `${record.startTime} ${field}`).toBe(sumMicros(inBucket, familyField));
          }
        }
      }),
      { numRuns: 8 },
    );
  });

  it('HTTP answers equal the ledger', async () => {
    await fc.assert(
      fc.asyncProperty(windowArb(24 * 30), fc.constantFrom<BucketSize>('hour', 'day', 'week', 'month', 'year'), fc.constantFrom(...FAMILIES, { source: 'aggregate' as const, route: '/v2/billing' }), async ({ start, end }, size, { source, route }) => {
        const body = await fetchRoute(route, start, end, size);
        const truth = sim.ledger.records(source, start, end, size);
        const idField = SOURCES[source].idField;
        expect(body.records.length).toBe(truth.length);
        body.records.forEach((r, i) => {
          const t = truth[i]!;
          expect([r.startTime, r.endTime, idField ? r[idField] : null]).toEqual([t.startTime, t.endTime, t.resourceId]);
          for (const f of SOURCE_FIELDS[source]) expect(micros(r[f] as number)).toBe(t.amounts[f]);
        });
      }),
      { numRuns: 20 },
    );
  });

  it('ledger.sum of a resource equals the filtered route totals', async () => {
    const id = sim.account.planted.spendSpike.id;
    const start = new Date('2026-11-01T00:00:00Z');
    const end = new Date('2026-11-20T00:00:00Z');
    const { body } = await get(sim, '/v2/billing/serverless' + qs({ startTime: start.toISOString(), endTime: end.toISOString(), serverlessId: id }));
    const truth = sim.ledger.sum({ source: 'serverless', start, end, resourceId: id });
    for (const f of SOURCE_FIELDS.serverless) expect(micros(body.metadata.totals[f])).toBe(truth[f]);
  });
});
