import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { addInventory, billPods, billServerless, billVolumes, setWatermark, tmpDbPath, viewStore } from '../helpers/view-store.ts';
import { gpuledger } from '../helpers/cli.ts';

describe('gpuledger billing', () => {
  let db: string;
  beforeAll(async () => {
    db = tmpDbPath('gpuledger-billing-');
    const store = await viewStore(db);
    await addInventory(store, [
      { kind: 'gpu_type', id: 'NVIDIA GeForce RTX 4090', doc: { name: 'RTX 4090', pool: 'ADA_24' } },
      { kind: 'gpu_type', id: 'NVIDIA RTX  A6000', doc: { name: 'RTX A6000', pool: 'AMPERE_48' } },
      { kind: 'pod', id: 'p1', doc: { name: 'a', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 1 } } },
      { kind: 'pod', id: 'p2', doc: { name: 'b', gpu: { id: 'NVIDIA GeForce RTX 4090', count: 2 } } },
      { kind: 'pod', id: 'p3', doc: { name: 'c', gpu: { id: 'NVIDIA RTX  A6000', count: 1 } } },
      { kind: 'endpoint', id: 'e1', doc: { name: 'api', gpu: { pools: ['AMPERE_48'], count: 1 } } },
    ]);
    await billPods(store, [
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '16.560000', disk: '0.100000' },
      { pod: 'p2', start: '2026-10-01T00:00:00Z', gpu: '33.120000' },
      { pod: 'p3', start: '2026-10-01T00:00:00Z', gpu: '11.760000' },
      { pod: 'p1', start: '2026-10-02T00:00:00Z', gpu: '8.280000' },
    ]);
    await billServerless(store, [{ endpoint: 'e1', start: '2026-10-01T00:00:00Z', gpu: '5.000000', fee: '0.100000' }]);
    await billVolumes(store, [{ volume: 'v1', start: '2026-10-01T00:00:00Z', standard: '1.000000', highPerformance: '0.500000' }]);
    await setWatermark(store, { source: 'pods', size: 'day', from: '2026-09-01T00:00:00Z', through: '2026-10-03T00:00:00Z' });
    await store.close();
  });

  const window = ['--start-time', '2026-10-01T00:00:00Z', '--end-time', '2026-10-03T00:00:00Z'];

  it('groups pods by GPU type by default, through the inventory join, as platform-CLI JSON records', async () => {
    const r = await gpuledger(['--db', db, 'billing', 'pods', ...window]);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toEqual([
      { time: '2026-10-01T00:00:00Z', amount: 49.78, gpuId: 'NVIDIA GeForce RTX 4090' },
      { time: '2026-10-01T00:00:00Z', amount: 11.76, gpuId: 'NVIDIA RTX  A6000' },
      { time: '2026-10-02T00:00:00Z', amount: 8.28, gpuId: 'NVIDIA GeForce RTX 4090' },
    ]);
  });

  it('groups by podId, filters by --pod-id and prints YAML', async () => {
    const r = await gpuledger(['--db', db, 'billing', 'pods', ...window, '--grouping', 'podId', '--pod-id', 'p1', '-o', 'yaml']);
    expect(parse(r.stdout)).toEqual([
      { time: '2026-10-01T00:00:00Z', amount: 16.66, podId: 'p1' },
      { time: '2026-10-02T00:00:00Z', amount: 8.28, podId: 'p1' },
    ]);
  });

  it('prints a table with a totals line, and CSV', async () => {
    const table = await gpuledger(['--db', db, 'billing', 'serverless', ...window, '-o', 'table']);
    expect(table.stdout.split('\n')).toEqual([
      'time                  endpointId    amount',
      '--------------------  ----------  --------',
      '2026-10-01T00:00:00Z  e1          5.100000',
      'total 5.100000 USD over 1 record(s), 2026-10-01T00:00:00Z – 2026-10-03T00:00:00Z',
      '',
    ]);
    // unlike the platform CLI, high-performance storage counts
    const csv = await gpuledger(['--db', db, 'billing', 'network-volume', ...window, '-o', 'csv']);
    expect(csv.stdout).toBe('time,amount\r\n2026-10-01T00:00:00Z,1.500000\r\n');
  });

  it('refuses what the data cannot answer, saying why, with exit 2', async () => {
    const byPod = await gpuledger(['--db', db, 'billing', 'serverless', '--grouping', 'podId']);
    expect(byPod.code).toBe(2);
    expect(byPod.stderr).toMatch(/^gpuledger: billing serverless cannot group by podId: API v2 bills Serverless per endpoint only/);
    const hour = await gpuledger(['--db', db, 'billing', 'pods', '--bucket-size', 'hour']);
    expect(hour).toMatchObject({ code: 2, stderr: "gpuledger: no pods billing at bucket size 'hour' in the database; fetch it with: gpuledger sync --source pods --bucket-size hour\n" });
    const flag = await gpuledger(['--db', db, 'billing', 'network-volume', '--pod-id', 'p1']);
    expect(flag).toMatchObject({ code: 2, stderr: 'gpuledger: --pod-id does not apply to billing network-volume (filters accepted: none)\n' });
    const time = await gpuledger(['--db', db, 'billing', 'pods', '--start-time', '2026-10-01']);
    expect(time.stderr).toMatch(/--start-time must be an RFC 3339 date-time/);
  });
});
