// The allocation's money invariants over random costs and rules (issue 13): each category's values add up to the
// total cost exactly, micro-dollar for micro-dollar, and a proportional split gives each target its exact share of
// every cost row, rounded to a micro-dollar (floor, or floor + 1 for the largest remainders).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadAllocationRules } from '../../src/allocation/load-rules.ts';
import { allocationConfigSchema } from '../../src/config/allocation.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { addInventory, billPods, billVolumes, viewStoreForSuite } from '../helpers/view-store.ts';

const store = viewStoreForSuite(async (store) => {
  await addInventory(store, ['a-1', 'a-2', 'b-1', 'c-1'].map((name, i) => ({ kind: 'pod' as const, id: `p${i}`, doc: { name } })));
});

const DAYS = ['2026-10-01T00:00:00Z', '2026-10-02T00:00:00Z', '2026-10-03T00:00:00Z'];
/** Amounts in micro-dollars, including odd ones that leave remainders and some credits. */
const micros = fc.integer({ min: -2_000_000, max: 50_000_000 });
const toDecimal = (m: number) => (m / 1e6).toFixed(6);

const costsArb = fc.record({
  pods: fc.array(fc.record({ pod: fc.constantFrom('p0', 'p1', 'p2', 'p3'), day: fc.constantFrom(...DAYS), gpu: micros, cpu: micros }), { maxLength: 12 }),
  volumes: fc.array(fc.record({ volume: fc.constantFrom('v1', 'v2'), day: fc.constantFrom(...DAYS), standard: micros }), { maxLength: 6 }),
  by: fc.oneof(
    fc.constant<'proportional' | 'even'>('proportional'),
    fc.constant<'proportional' | 'even'>('even'),
    fc.integer({ min: 1, max: 99 }).map((p) => ({ alpha: p, beta: 100 - p })),
  ),
});

type Costs = typeof costsArb extends fc.Arbitrary<infer T> ? T : never;

async function given(costs: Costs) {
  for (const table of ['raw_billing_pods', 'raw_billing_network_volumes']) await store.run(`delete from ${table}`);
  // one bill per (resource, day): the API has one record per bucket
  const pods = new Map(costs.pods.map((p) => [`${p.pod} ${p.day}`, p]));
  const volumes = new Map(costs.volumes.map((v) => [`${v.volume} ${v.day}`, v]));
  await billPods(store, [...pods.values()].map((p) => ({ pod: p.pod, start: p.day, gpu: toDecimal(p.gpu), cpu: toDecimal(p.cpu) })));
  await billVolumes(store, [...volumes.values()].map((v) => ({ volume: v.volume, start: v.day, standard: toDecimal(v.standard) })));
  await loadAllocationRules(
    store,
    allocationConfigSchema.parse({
      categories: {
        team: {
          rules: [
            { value: 'alpha', match: { resource: 'a-*' } },
            { value: 'beta', match: { resource: 'b-*', component: 'gpu' } },
            { value: 'shared', match: { family: 'storage' } },
          ],
          split: [{ from: 'shared', to: ['alpha', 'beta'], by: costs.by }],
        },
      },
    }),
  );
}

const sumOf = async (sql: string) => decimalStringToMicros((await store.one<{ s: string | null }>(sql))?.s ?? '0');

describe('allocation properties', () => {
  it('adds every category up to the total cost exactly, per account and day', async () => {
    await fc.assert(
      fc.asyncProperty(costsArb, async (costs) => {
        await given(costs);
        const perDay = await store.all<{ day: string; total: string | null; allocated: string | null }>(
          `select c.day::varchar as day, c.total::varchar as total, a.allocated::varchar as allocated
           from (select day, sum(amount) as total from cost_daily group by day) as c
           full join (select day, sum(amount) as allocated from cost_allocated where category = 'team' group by day) as a using (day)`,
        );
        for (const row of perDay) expect(`${row.day} ${row.allocated}`).toBe(`${row.day} ${row.total}`);
        expect(await sumOf(`select sum(amount)::varchar as s from cost_allocated`)).toBe(await sumOf(`select sum(amount)::varchar as s from cost_daily`));
      }),
      { numRuns: 12 },
    );
  });

  it('gives each proportional target its exact share of each row, to the micro-dollar', async () => {
    await fc.assert(
      fc.asyncProperty(costsArb.map((c) => ({ ...c, by: 'proportional' as const })), async (costs) => {
        await given(costs);
        const basis = await store.all<{ day: string; value: string; amount: string }>(
          `select day::varchar as day, value, sum(amount)::varchar as amount from cost_allocated where split_from is null group by all`,
        );
        const weight = (day: string, value: string) => {
          const m = decimalStringToMicros(basis.find((b) => b.day === day && b.value === value)?.amount ?? '0');
          return m > 0n ? m : 0n;
        };
        const shares = await store.all<{ day: string; resource_id: string; value: string; amount: string }>(
          `select day::varchar as day, resource_id, value, amount::varchar as amount from cost_allocated where split_from = 'shared'`,
        );
        const sources = await store.all<{ day: string; resource_id: string; amount: string }>(
          `select day::varchar as day, resource_id, amount::varchar as amount from cost_daily where family = 'storage'`,
        );
        for (const source of sources) {
          const total = weight(source.day, 'alpha') + weight(source.day, 'beta');
          if (total === 0n) continue;
          const a = decimalStringToMicros(source.amount);
          for (const value of ['alpha', 'beta']) {
            const exact = a * weight(source.day, value);
            const floor = exact >= 0n ? exact / total : -((-exact + total - 1n) / total);
            const got = shares.find((s) => s.day === source.day && s.resource_id === source.resource_id && s.value === value);
            const share = got ? decimalStringToMicros(got.amount) : 0n;
            expect(share === floor || share === floor + 1n, `${source.day} ${source.resource_id} ${value}: ${share} vs ${exact}/${total}`).toBe(true);
          }
        }
      }),
      { numRuns: 12 },
    );
  });
});
