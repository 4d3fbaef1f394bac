// fct_scope_cost_daily (issue 28 §3): the cost per account, day and built-in scope that unit costs divide, grouped once
// per writing session instead of on every read – equal to int_builtin_scope_cost_daily after the first refresh and
// after a later write that changes one day, a Serverless row counted once under its endpoint.
import { describe, expect, it } from 'vitest';
import { billPods, billServerless, viewStoreEachTest } from '../helpers/view-store.ts';

const TABLE = `select account, day::varchar as day, scope, cost::varchar as cost from fct_scope_cost_daily order by all`;
const VIEW = `select account, day::varchar as day, scope, cost::varchar as cost from int_builtin_scope_cost_daily order by all`;

describe('fct_scope_cost_daily', () => {
  const store = viewStoreEachTest();

  it('holds each day\'s cost per account, family and endpoint, and follows a later write of one day', async () => {
    await billPods(store, [
      { pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '1.000001', disk: '0.100000' },
      { pod: 'p1', start: '2026-10-02T00:00:00Z', gpu: '2.000000' },
    ]);
    await billServerless(store, [{ endpoint: 'ep1', start: '2026-10-01T00:00:00Z', gpu: '0.500000', fee: '0.000002' }]);
    const first = await store.all(TABLE);
    expect(first).toEqual(await store.all(VIEW));
    expect(first.filter((r) => r.day === '2026-10-01')).toEqual([
      { account: 'acme', day: '2026-10-01', scope: '', cost: '1.600003' },
      { account: 'acme', day: '2026-10-01', scope: 'endpoint:ep1', cost: '0.500002' },
      { account: 'acme', day: '2026-10-01', scope: 'family:pod', cost: '1.100001' },
      { account: 'acme', day: '2026-10-01', scope: 'family:serverless', cost: '0.500002' },
    ]);
    await billPods(store, [{ pod: 'p1', start: '2026-10-03T00:00:00Z', gpu: '3.000000' }]);
    const second = await store.all(TABLE);
    expect(second).toEqual(await store.all(VIEW));
    expect(second.filter((r) => r.scope === '').map((r) => [r.day, r.cost])).toEqual([
      ['2026-10-01', '1.600003'],
      ['2026-10-02', '2.000000'],
      ['2026-10-03', '3.000000'],
    ]);
  });
});
