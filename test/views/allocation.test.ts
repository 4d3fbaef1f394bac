import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAllocationRules } from '../../src/allocation/load-rules.ts';
import { allocationConfigSchema } from '../../src/config/allocation.ts';
import type { Store } from '../../src/store/database.ts';
import { addInventory, billPods, billVolumes, viewStore } from '../helpers/view-store.ts';

const rules = (categories: unknown) => allocationConfigSchema.parse({ categories });

const TEAM = {
  rules: [
    { value: 'imaging', match: { resource: 'img-*' } },
    { value: 'research', match: { resource: ['train-?', 'lab-*'], family: 'pod' } },
    { value: 'platform', match: { family: 'storage' } },
  ],
  default: 'unallocated',
};

describe('cost_allocated', () => {
  let store: Store;
  beforeEach(async () => {
    store = await viewStore();
    await addInventory(store, [
      { kind: 'pod', id: 'p1', doc: { name: 'img-1' } },
      { kind: 'pod', id: 'p2', doc: { name: 'train-1' } },
      { kind: 'pod', id: 'p3', doc: { name: 'other' } },
    ]);
  });
  afterEach(async () => store.close());

  const byValue = (category = 'team') =>
    store.all(
      `select value, rule, split_from, sum(amount)::varchar as amount from cost_allocated where category = $1 group by all order by value, split_from nulls first`,
      [category],
    );

  it('gives each cost the value of the first rule whose keys all hold, matching ids or names, else the default', async () => {
    await billPods(store, [
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '3' },
      { pod: 'p2', start: '2026-10-01T00:00:00Z', gpu: '1' },
      { pod: 'p3', start: '2026-10-01T00:00:00Z', gpu: '0.5' },
    ]);
    await loadAllocationRules(store, rules({ team: { ...TEAM, rules: [{ value: 'by-id', match: { resource: 'p3' } }, ...TEAM.rules] } }));
    expect(await byValue()).toEqual([
      { value: 'by-id', rule: 1, split_from: null, amount: '0.500000' },
      { value: 'imaging', rule: 2, split_from: null, amount: '3.000000' },
      { value: 'research', rule: 3, split_from: null, amount: '1.000000' },
    ]);
  });

  it('splits proportionally to the targets’ direct cost that day, giving the leftover micro-dollar to the largest remainder', async () => {
    await billPods(store, [
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '3' },
      { pod: 'p2', start: '2026-10-01T00:00:00Z', gpu: '1' },
    ]);
    await billVolumes(store, [{ volume: 'v1', start: '2026-10-01T00:00:00Z', standard: '1.000001' }]);
    await loadAllocationRules(store, rules({ team: { ...TEAM, split: [{ from: 'platform', to: ['imaging', 'research'] }] } }));
    expect(await byValue()).toEqual([
      { value: 'imaging', rule: 1, split_from: null, amount: '3.000000' },
      { value: 'imaging', rule: 3, split_from: 'platform', amount: '0.750001' },
      { value: 'research', rule: 2, split_from: null, amount: '1.000000' },
      { value: 'research', rule: 3, split_from: 'platform', amount: '0.250000' },
    ]);
    expect(await store.all(`select count(*)::integer as n from rpt_allocation_warnings`)).toEqual([{ n: 0 }]);
  });

  it('keeps the cost of a day on which no target had direct cost, and warns about it', async () => {
    await billPods(store, [{ pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '3' }]);
    await billVolumes(store, [
      { volume: 'v1', start: '2026-10-01T00:00:00Z', standard: '1' },
      { volume: 'v1', start: '2026-10-02T00:00:00Z', standard: '2' },
    ]);
    await loadAllocationRules(store, rules({ team: { ...TEAM, split: [{ from: 'platform', to: ['imaging', 'research'] }] } }));
    expect(await byValue()).toEqual([
      { value: 'imaging', rule: 1, split_from: null, amount: '3.000000' },
      { value: 'imaging', rule: 3, split_from: 'platform', amount: '1.000000' },
      { value: 'platform', rule: 3, split_from: null, amount: '2.000000' },
    ]);
    expect(await store.all(`select category, split, account, day::varchar as day, kept_value, kept_amount from rpt_allocation_warnings`)).toEqual([
      { category: 'team', split: 1, account: 'acme', day: '2026-10-02', kept_value: 'platform', kept_amount: '2.000000' },
    ]);
  });

  it('splits evenly and by fixed percentages, each row’s shares adding up to its amount', async () => {
    await billVolumes(store, [{ volume: 'v1', start: '2026-10-01T00:00:00Z', standard: '1' }]);
    const split = (by: unknown) => rules({ team: { ...TEAM, split: [{ from: 'platform', to: ['imaging', 'research', 'unallocated'], by }] } });
    await loadAllocationRules(store, split('even'));
    expect((await byValue()).map((r) => [r.value, r.amount])).toEqual([
      ['imaging', '0.333334'],
      ['research', '0.333333'],
      ['unallocated', '0.333333'],
    ]);
    await loadAllocationRules(store, split({ imaging: 70, research: 29.5, unallocated: 0.5 }));
    expect((await byValue()).map((r) => [r.value, r.amount])).toEqual([
      ['imaging', '0.700000'],
      ['research', '0.295000'],
      ['unallocated', '0.005000'],
    ]);
  });

  it('applies changed rules to all stored history at once', async () => {
    await billPods(store, [{ pod: 'p3', start: '2026-09-01T00:00:00Z', gpu: '2' }]);
    await loadAllocationRules(store, rules({ team: TEAM }));
    expect((await byValue()).map((r) => r.value)).toEqual(['unallocated']);
    await loadAllocationRules(store, rules({ team: { ...TEAM, rules: [{ value: 'misc', match: { resource: 'oth*' } }] } }));
    expect((await byValue()).map((r) => r.value)).toEqual(['misc']);
  });

  it('keeps categories independent and escapes LIKE wildcards in globs', async () => {
    await addInventory(store, [{ kind: 'pod', id: 'p4', doc: { name: 'a_b%' } }]);
    await billPods(store, [
      { pod: 'p4', start: '2026-10-01T00:00:00Z', gpu: '1' },
      { pod: 'p3', start: '2026-10-01T00:00:00Z', gpu: '2' },
    ]);
    await loadAllocationRules(store, rules({ team: TEAM, project: { rules: [{ value: 'literal', match: { resource: 'a_b%' } }], default: 'none' } }));
    expect(await byValue('project')).toEqual([
      { value: 'literal', rule: 1, split_from: null, amount: '1.000000' },
      { value: 'none', rule: null, split_from: null, amount: '2.000000' },
    ]);
    expect((await byValue('team')).map((r) => [r.value, r.amount])).toEqual([['unallocated', '3.000000']]);
  });
});
