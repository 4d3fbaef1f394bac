// The explorer's SQL is made from whitelisted fragments only: every value from the URL is a bound parameter, never
// text in the statement; the facts read follow the metric and the category; a dimension the facts lack is refused.
import { describe, expect, it } from 'vitest';
import { csvQuery, pageQuery, valueExistsQuery } from '../../src/explore/build-query.ts';
import { comparedRanges } from '../../src/explore/coverage.ts';
import { parseExploreRequest } from '../../src/explore/request.ts';
import { addInventory, billPods, billVolumes, viewStore } from '../helpers/view-store.ts';

const parse = (query: string) => parseExploreRequest(new URLSearchParams(query), '2026-11-20');
const HOSTILE = `x'); drop table fct_cost_daily; --`;

describe('explorer SQL', () => {
  it('binds every filter value, the range and the category; none is in the text', () => {
    const r = parse(`by=category:${encodeURIComponent(HOSTILE)}&filter=${encodeURIComponent(`template:${HOSTILE}`)}&filter=${encodeURIComponent(`-endpoint:${HOSTILE}`)}`);
    for (const q of [csvQuery(r), pageQuery(r), valueExistsQuery(r, 0)]) {
      expect(q.sql).not.toContain(HOSTILE);
      expect(q.sql).not.toContain('drop table');
      expect(Object.values(q.params)).toContain(HOSTILE);
    }
    const page = pageQuery(r);
    expect(page.params).toEqual({ category: HOSTILE, f0: HOSTILE, f1: HOSTILE, from: '2026-11-01', to: '2026-11-20', prev_from: '2026-10-12', prev_to: '2026-10-31', cmp_to: '2026-11-20' });
    expect(page.sql).toContain("coalesce(template_name, '(none)') in ($f0)");
    expect(page.sql).toContain("coalesce(endpoint_name, '(none)') not in ($f1)");
    expect(page.sql).toContain('from cost_allocated');
  });

  it('ORs the values of one dimension and ANDs the dimensions', () => {
    const q = csvQuery(parse('filter=family:pod&filter=family:storage&filter=-account:b'));
    expect(q.sql).toContain('family in ($f0, $f1)');
    expect(q.sql).toContain("account not in ($f2)");
  });

  it('divides a unit cost by the metric of the accounts kept, whatever the other filters', () => {
    // a metric name is letters, digits, '_', '.', '-' (metrics import's rule); it is bound all the same
    expect(() => parse(`metric=unit_cost:${encodeURIComponent(HOSTILE)}`)).toThrow('metric must be cost, gpu_hours or unit_cost:<metric>');
    const q = pageQuery(parse('metric=unit_cost:images.v2&filter=family:pod&filter=-account:b'));
    expect(q.params.unit_metric).toBe('images.v2');
    expect(q.sql).not.toContain('images.v2');
    const quantity = /from metrics_daily[^)]*/.exec(q.sql)![0];
    expect(quantity).toContain('metric = $unit_metric');
    expect(quantity).toContain('account not in ($f1');
    expect(quantity).not.toContain('$f0');
  });

  it('reads cost_daily for cost, gpu_hours_daily for GPU-hours', () => {
    expect(csvQuery(parse('by=family')).sql).toMatch(/from cost_daily\s/);
    expect(csvQuery(parse('metric=gpu_hours&by=gpu_type')).sql).toMatch(/from gpu_hours_daily\s/);
  });

  it.each([
    ['metric=gpu_hours&by=template', 'metric gpu_hours has no template: use family, endpoint, gpu_type, resource, account'],
    ['metric=gpu_hours&filter=component:gpu', 'metric gpu_hours has no component: use family, endpoint, gpu_type, resource, account'],
    ['metric=gpu_hours&by=category:team', 'metric gpu_hours has no allocation categories: group or filter by family, endpoint, gpu_type, resource, account'],
  ])('refuses %s', (query, message) => {
    expect(() => csvQuery(parse(query))).toThrow(message);
  });

  // on the real views: raw billing and inventory as a sync leaves them, read back through cost_daily
  it('runs on the real views with the parameters it names, and no others', async () => {
    const store = await viewStore();
    await addInventory(store, [
      { kind: 'template', id: 'tpl-1', doc: { name: 'tpl', image: 'tpl:1' } },
      { kind: 'pod', id: 'r1', doc: { name: 'one', gpu: { id: 'NVIDIA A100', count: 1 }, template: 'tpl-1', image: 'tpl:1', status: 'RUNNING' } },
      { kind: 'pod', id: 'r2', doc: { name: 'two', gpu: { id: 'NVIDIA H100', count: 1 }, template: null, image: 'other:1', status: 'RUNNING' } },
      { kind: 'network_volume', id: 'v1', doc: { name: 'vol', size: 10, dataCenter: 'EU-RO-1', type: 'STANDARD' } },
    ]);
    await billPods(store, [
      { pod: 'r1', start: '2026-11-02T00:00:00Z', gpu: '1.500000' },
      { pod: 'r2', start: '2026-11-03T00:00:00Z', gpu: '2.250000' },
    ]);
    await billVolumes(store, [{ volume: 'v1', start: '2026-10-20T00:00:00Z', standard: '0.100000' }]);
    const r = parse('from=2026-11-01&to=2026-11-10&granularity=week&by=template&filter=-family:storage');
    const csv = csvQuery(r);
    const rows = await store.all<Record<string, unknown>>(csv.sql, csv.params);
    // 2026-11-02 is a Monday: both days are in its week; a missing template is '(none)'
    expect(rows).toEqual([
      { period_start: '2026-11-02', template_key: '(none)', template_name: '(none)', amount: '2.250000' },
      { period_start: '2026-11-02', template_key: 'tpl', template_name: 'tpl', amount: '1.500000' },
    ]);
    const page = pageQuery(parse('from=2026-11-01&to=2026-11-10&by=resource'));
    const groups = (await store.all<Record<string, unknown>>(page.sql, page.params)).filter((g) => g.kind === 'group');
    expect(groups.map((g) => [g.rank, g.k1, g.n1, g.v])).toEqual([['1', 'r2', 'two', '2.250000'], ['2', 'r1', 'one', '1.500000'], ['11', null, null, null]]);
    // a day still loading: the change compares the ended days with as many days from the previous range's start
    const partial = parse('from=2026-11-02&to=2026-11-03&by=family');
    const like = pageQuery(partial, comparedRanges(partial.from, partial.to, '2026-11-03T12:00:00Z'));
    expect(like.params).toMatchObject({ cmp_to: '2026-11-02', prev_from: '2026-10-31', prev_to: '2026-10-31' });
    const pod = (await store.all<Record<string, unknown>>(like.sql, like.params)).find((g) => g.kind === 'group' && g.k1 === 'pod')!;
    expect([pod.v, pod.compared]).toEqual(['3.750000', '1.500000']);
    // no ended day yet: nothing compared, so no change
    const none = pageQuery(partial, comparedRanges(partial.from, partial.to, '2026-11-02T06:00:00Z'));
    const unended = (await store.all<Record<string, unknown>>(none.sql, none.params)).filter((g) => g.kind === 'group' && g.k1 === 'pod');
    expect(unended.map((g) => [g.v, g.compared, g.previous])).toEqual([['3.750000', null, null]]);
    await store.close();
  });
});
