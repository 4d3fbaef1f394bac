// The billing routes against billing-api-v2.md §1–2: windows, snapping, defaults, lastN, errors, filters,
// metadata, dense and sparse grids, the old network-volume spelling.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { get, micros, NOW, qs, sumMicros, UNLIMITED } from '../helpers/simulator-http.ts';

let sim: Simulator;
let sparseSim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: NOW, quotas: UNLIMITED });
  sparseSim = await startSimulator({ now: NOW, sparse: true, quotas: UNLIMITED });
});
afterAll(async () => {
  await sim.close();
  await sparseSim.close();
});

const pods = (params: Record<string, string | number | undefined>) => get(sim, '/v2/billing/pods' + qs(params));

describe('billing windows (billing-api-v2.md §2)', () => {
  it('snaps the documented 10:30–11:15 hourly window to [10:00, 12:00)', async () => {
    const { status, body } = await pods({ bucketSize: 'hour', startTime: '2026-11-19T10:30:00Z', endTime: '2026-11-19T11:15:00Z' });
    expect(status).toBe(200);
    expect(body.metadata.query).toEqual({ startTime: '2026-11-19T10:00:00Z', endTime: '2026-11-19T12:00:00Z', bucketSize: 'hour', podId: null });
    const starts = new Set(body.records.map((r: { startTime: string }) => r.startTime));
    expect([...starts]).toEqual(['2026-11-19T10:00:00Z', '2026-11-19T11:00:00Z']);
    for (const r of body.records) {
      expect(r.endTime).toBe(r.startTime === '2026-11-19T10:00:00Z' ? '2026-11-19T11:00:00Z' : '2026-11-19T12:00:00Z');
    }
  });

  it('treats endTime as exclusive when it is already on a boundary', async () => {
    const { body } = await pods({ bucketSize: 'hour', startTime: '2026-11-19T10:00:00Z', endTime: '2026-11-19T12:00:00Z' });
    expect(body.metadata.query.endTime).toBe('2026-11-19T12:00:00Z');
    expect(body.records.every((r: { startTime: string }) => r.startTime < '2026-11-19T12:00:00Z')).toBe(true);
  });

  it('defaults to daily buckets from now − 30 days to the end of the open day', async () => {
    const { body } = await pods({});
    expect(body.metadata.query).toEqual({ startTime: '2026-10-21T00:00:00Z', endTime: '2026-11-21T00:00:00Z', bucketSize: 'day', podId: null });
    const starts = body.records.map((r: { startTime: string }) => r.startTime);
    expect(starts[0]).toBe('2026-10-21T00:00:00Z');
    expect(starts[starts.length - 1]).toBe('2026-11-20T00:00:00Z');
  });

  it('returns the last N buckets including the open one for lastN', async () => {
    const { body } = await pods({ bucketSize: 'hour', lastN: 3 });
    expect(body.metadata.query).toMatchObject({ startTime: '2026-11-20T10:00:00Z', endTime: '2026-11-20T13:00:00Z', bucketSize: 'hour' });
    expect([...new Set(body.records.map((r: { startTime: string }) => r.startTime))]).toEqual([
      '2026-11-20T10:00:00Z',
      '2026-11-20T11:00:00Z',
      '2026-11-20T12:00:00Z',
    ]);
  });

  it('does not return buckets that start after now, but echoes the requested window', async () => {
    const { body } = await pods({ startTime: '2026-11-18T00:00:00Z', endTime: '2026-11-25T00:00:00Z' });
    expect(body.metadata.query.endTime).toBe('2026-11-25T00:00:00Z');
    expect(body.records.every((r: { startTime: string }) => r.startTime <= '2026-11-20T00:00:00Z')).toBe(true);
    expect(body.records.some((r: { startTime: string }) => r.startTime === '2026-11-20T00:00:00Z')).toBe(true);
  });

  it('uses Monday weeks and calendar months', async () => {
    const week = await pods({ bucketSize: 'week', startTime: '2026-11-11T00:00:00Z', endTime: '2026-11-12T00:00:00Z' });
    expect(week.body.metadata.query).toMatchObject({ startTime: '2026-11-09T00:00:00Z', endTime: '2026-11-16T00:00:00Z' });
    const month = await pods({ bucketSize: 'month', startTime: '2026-10-15T00:00:00Z', endTime: '2026-10-16T00:00:00Z' });
    expect(month.body.metadata.query).toMatchObject({ startTime: '2026-10-01T00:00:00Z', endTime: '2026-11-01T00:00:00Z' });
  });
});

describe('billing parameter errors (billing-api-v2.md §1)', () => {
  it('answers 400 problem+json when lastN comes with startTime or endTime', async () => {
    for (const extra of [{ startTime: '2026-11-01T00:00:00Z' }, { endTime: '2026-11-01T00:00:00Z' }]) {
      const a = await pods({ lastN: 2, ...extra });
      expect(a.status).toBe(400);
      expect(a.headers.get('content-type')).toBe('application/problem+json');
      expect(a.body).toMatchObject({ title: 'Bad Request', status: 400 });
      expect(a.body.detail).toContain('lastN');
    }
  });

  it.each([
    [{ bucketSize: 'fortnight' }, 'bucketSize'],
    [{ startTime: 'yesterday' }, 'startTime'],
    [{ endTime: '2026-02-30T00:00:00Z' }, 'endTime'],
    [{ lastN: 0 }, 'lastN'],
    [{ lastN: 'abc' }, 'lastN'],
    [{ startTime: '2026-11-10T00:00:00Z', endTime: '2026-11-09T00:00:00Z' }, 'startTime must be before endTime'],
    [{ startTime: '2026-11-10T05:00:00Z', endTime: '2026-11-10T05:00:00Z', bucketSize: 'hour' }, 'before endTime'],
  ])('answers 422 with errors for %j', async (params, mention) => {
    const a = await pods(params);
    expect(a.status).toBe(422);
    expect(a.headers.get('content-type')).toBe('application/problem+json');
    expect(a.body.status).toBe(422);
    expect(a.body.errors.join(' ')).toContain(mention);
  });

  it('lists every malformed value at once', async () => {
    const a = await pods({ bucketSize: 'x', startTime: 'y' });
    expect(a.body.errors).toHaveLength(2);
  });
});

describe('billing answers', () => {
  it('has the documented record and metadata shape, keys in API order', async () => {
    const { body, headers } = await pods({ bucketSize: 'hour', lastN: 2 });
    expect(headers.get('content-type')).toBe('application/json');
    expect(Object.keys(body)).toEqual(['records', 'metadata']);
    expect(Object.keys(body.records[0])).toEqual(['startTime', 'endTime', 'podId', 'totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount']);
    expect(Object.keys(body.metadata)).toEqual(['query', 'recordCount', 'uniquePodCount', 'totals']);
    expect(Object.keys(body.metadata.totals)).toEqual(['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount']);
  });

  it.each([
    ['/v2/billing', null, null, 14],
    ['/v2/billing/serverless', 'serverlessId', 'uniqueServerlessCount', 5],
    ['/v2/billing/network-volumes', 'networkVolumeId', 'uniqueNetworkVolumeCount', 3],
    ['/v2/billing/endpoints', null, null, 1],
    ['/v2/billing/clusters', 'clusterId', 'uniqueClusterCount', 4],
  ])('%s carries its id field, filter echo and unique count', async (route, idField, countKey, fieldCount) => {
    const { status, body } = await get(sim, route + '?lastN=2');
    expect(status).toBe(200);
    const record = body.records[0];
    expect(Object.keys(record).slice(0, 2)).toEqual(['startTime', 'endTime']);
    const amounts = Object.keys(record).filter((k) => k.endsWith('Amount'));
    expect(amounts).toHaveLength(fieldCount);
    expect(amounts[0]).toBe('totalAmount');
    if (idField) {
      expect(typeof record[idField]).toBe('string');
      expect(body.metadata.query[idField]).toBeNull();
      expect(body.metadata[countKey!]).toBe(new Set(body.records.map((r: Record<string, string>) => r[idField])).size);
    } else {
      expect(Object.keys(body.metadata.query)).toEqual(['startTime', 'endTime', 'bucketSize']);
    }
  });

  it('orders records by startTime, then id', async () => {
    const { body } = await pods({ bucketSize: 'hour', lastN: 5 });
    const keys = body.records.map((r: { startTime: string; podId: string }) => `${r.startTime} ${r.podId}`);
    expect(keys).toEqual([...keys].sort());
  });

  it('metadata counts and totals are those of the records', async () => {
    const { body } = await pods({ bucketSize: 'day', lastN: 10 });
    expect(body.metadata.recordCount).toBe(body.records.length);
    for (const f of ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount']) {
      expect(micros(body.metadata.totals[f])).toBe(sumMicros(body.records, f));
    }
  });

  it('filters by podId and echoes the filter', async () => {
    const id = sim.account.planted.secureCheaperOnCommunity.id;
    const { body } = await pods({ podId: id, lastN: 4 });
    expect(body.metadata.query.podId).toBe(id);
    expect(body.records).toHaveLength(4);
    expect(body.records.every((r: { podId: string }) => r.podId === id)).toBe(true);
    expect(body.metadata.uniquePodCount).toBe(1);
  });

  it('answers an unknown filter id with no records and zero totals', async () => {
    const { status, body } = await pods({ podId: 'nosuchpod', lastN: 4 });
    expect(status).toBe(200);
    expect(body.records).toEqual([]);
    expect(body.metadata).toMatchObject({ recordCount: 0, uniquePodCount: 0, totals: { totalAmount: 0 } });
  });

  it.each([
    ['/v2/billing/serverless', 'serverlessId', () => sim.account.planted.spendSpike.id],
    ['/v2/billing/network-volumes', 'networkVolumeId', () => sim.account.planted.unattachedVolume.id],
    ['/v2/billing/clusters', 'clusterId', () => sim.account.planted.cluster.id],
  ])('filters %s by %s', async (route, param, id) => {
    const { body } = await get(sim, `${route}?lastN=3&${param}=${id()}`);
    expect(body.metadata.query[param]).toBe(id());
    expect(body.records).toHaveLength(3);
    expect(body.records.every((r: Record<string, string>) => r[param] === id())).toBe(true);
  });

  it('returns a dense grid: every billed resource in every bucket, zeros included', async () => {
    // the planted batch pod was terminated 25 days before now: a window around that has zero buckets for it
    const window = { bucketSize: 'day', startTime: '2026-10-20T00:00:00Z', endTime: '2026-10-30T00:00:00Z' };
    const { body } = await pods(window);
    const buckets = new Set(body.records.map((r: { startTime: string }) => r.startTime)).size;
    expect(buckets).toBe(10);
    expect(body.records).toHaveLength(buckets * body.metadata.uniquePodCount);
    const terminated = sim.account.planted.terminatedPod.id;
    const mine = body.records.filter((r: { podId: string }) => r.podId === terminated);
    expect(mine).toHaveLength(10);
    expect(mine.filter((r: { totalAmount: number }) => r.totalAmount === 0).length).toBeGreaterThan(0);

    const sparse = await get(sparseSim, '/v2/billing/pods' + qs(window));
    expect(sparse.body.records.every((r: { totalAmount: number }) => r.totalAmount > 0)).toBe(true);
    expect(sparse.body.records.length).toBeLessThan(body.records.length);
    expect(sparse.body.metadata.totals).toEqual(body.metadata.totals);
  });

  it('leaves out resources with nothing billed in the window', async () => {
    const terminated = sim.account.planted.terminatedPod;
    const { body } = await pods({ startTime: '2026-11-10T00:00:00Z', endTime: '2026-11-12T00:00:00Z' });
    expect(terminated.terminatedAt < new Date('2026-11-10T00:00:00Z')).toBe(true);
    expect(body.records.some((r: { podId: string }) => r.podId === terminated.id)).toBe(false);
  });

  it('serves the old /v2/billing/networkvolumes spelling with the same answer', async () => {
    const a = await get(sim, '/v2/billing/network-volumes?lastN=5&bucketSize=hour');
    const b = await get(sim, '/v2/billing/networkvolumes?lastN=5&bucketSize=hour');
    expect(b.status).toBe(200);
    expect(b.text).toBe(a.text);
  });

  it('bills cluster member pods under clusters only, never under pods', async () => {
    const members = new Set(sim.account.planted.cluster.memberPodIds);
    const { body } = await pods({ startTime: '2026-11-01T00:00:00Z', endTime: '2026-11-21T00:00:00Z' });
    expect(body.records.some((r: { podId: string }) => members.has(r.podId))).toBe(false);
    const clusters = await get(sim, '/v2/billing/clusters?bucketSize=hour&startTime=2026-11-19T00:00:00Z&endTime=2026-11-19T01:00:00Z');
    // 2 pods × 4 H100 at the secure list price of $2.69
    expect(clusters.body.records[0]).toMatchObject({ clusterId: sim.account.planted.cluster.id, gpuAmount: 21.52 });
  });
});
