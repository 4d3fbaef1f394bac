// The explorer's URL parameters: what each means, and every refusal one line naming what is accepted.
import { describe, expect, it } from 'vitest';
import { parseExploreRequest, presetRange, previousRange, requestParams } from '../../src/explore/request.ts';

const TODAY = '2026-11-20';
const parse = (query: string) => parseExploreRequest(new URLSearchParams(query), TODAY);

describe('explorer parameters', () => {
  it('defaults to the month to date by family, per day, cost', () => {
    expect(parse('')).toEqual({ from: '2026-11-01', to: '2026-11-20', preset: undefined, granularity: 'day', by: [{ kind: 'plain', name: 'family' }], filters: [], metric: 'cost', unitMetric: undefined, unitScope: '', asOf: undefined, changedSince: undefined });
  });

  it.each([
    ['mtd', '2026-11-01', '2026-11-20'],
    ['last-month', '2026-10-01', '2026-10-31'],
    ['7d', '2026-11-14', '2026-11-20'],
    ['30d', '2026-10-22', '2026-11-20'],
    ['90d', '2026-08-23', '2026-11-20'],
    ['ytd', '2026-01-01', '2026-11-20'],
  ] as const)('preset %s covers %s to %s', (preset, from, to) => {
    expect(presetRange(preset, TODAY)).toEqual({ from, to });
    expect(parse(`preset=${preset}&from=2020-01-01&to=2020-01-02`)).toMatchObject({ from, to, preset });
  });

  it('last-month from the 1st of March is February, leap year or not', () => {
    expect(presetRange('last-month', '2028-03-01')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });

  it('compares with the same number of days just before', () => {
    expect(previousRange('2026-11-01', '2026-11-30')).toEqual({ from: '2026-10-02', to: '2026-10-31' });
  });

  it('reads two groupings, includes, exclusions and a category filter whose value holds colons', () => {
    const r = parse('from=2026-11-01&to=2026-11-07&granularity=week&by=template&by=category:team&filter=family:pod&filter=-gpu_type:NVIDIA A100&filter=category:team:a:b&filter=&metric=cost');
    expect(r.by).toEqual([{ kind: 'plain', name: 'template' }, { kind: 'category', category: 'team' }]);
    expect(r.filters).toEqual([
      { dimension: { kind: 'plain', name: 'family' }, value: 'pod', exclude: false },
      { dimension: { kind: 'plain', name: 'gpu_type' }, value: 'NVIDIA A100', exclude: true },
      { dimension: { kind: 'category', category: 'team' }, value: 'a:b', exclude: false },
    ]);
  });

  it('a day as as_of means its end; a moment stays as written', () => {
    expect(parse('as_of=2026-11-02').asOf).toEqual({ text: '2026-11-02', at: '2026-11-02T23:59:59.999Z' });
    expect(parse('as_of=2026-11-02T10:00:00Z').asOf).toEqual({ text: '2026-11-02T10:00:00Z', at: '2026-11-02T10:00:00Z' });
  });

  it('reads changed_since as as_of: a day means its end', () => {
    expect(parse('changed_since=2026-11-02').changedSince).toEqual({ text: '2026-11-02', at: '2026-11-02T23:59:59.999Z' });
    expect(parse('changed_since=2026-11-02T10:00:00Z')).toMatchObject({ asOf: undefined, changedSince: { text: '2026-11-02T10:00:00Z', at: '2026-11-02T10:00:00Z' } });
  });

  it('reads a unit cost of a named metric', () => {
    expect(parse('metric=unit_cost:images')).toMatchObject({ metric: 'unit_cost', unitMetric: 'images' });
    expect(parse('metric=gpu_hours')).toMatchObject({ metric: 'gpu_hours', unitMetric: undefined });
  });

  it('round-trips through its own link', () => {
    const unit = parse('metric=unit_cost:jobs_completed&by=endpoint');
    expect(parseExploreRequest(requestParams(unit), TODAY)).toEqual(unit);
    const r = parse('preset=30d&granularity=week&by=resource&by=family&filter=-family:storage&metric=gpu_hours&as_of=2026-11-02');
    expect(parseExploreRequest(requestParams(r), TODAY)).toEqual(r);
    const since = parse('preset=7d&by=template&changed_since=2026-11-02T10:00:00Z');
    expect(parseExploreRequest(requestParams(since), TODAY)).toEqual(since);
    const custom = parse('from=2026-10-03&to=2026-10-09');
    expect(parseExploreRequest(requestParams(custom), '2030-01-01')).toEqual(custom);
  });

  it.each([
    ['by=colour', "by 'colour' is not a dimension: use family, template, endpoint, gpu_type, resource, account, component or category:<name>"],
    ['filter=colour:red', "filter dimension 'colour' is not a dimension: use family, template, endpoint, gpu_type, resource, account, component or category:<name>"],
    ['filter=family', "filter 'family' must be <dimension>:<value> (or -<dimension>:<value> to exclude), the dimension one of family, template, endpoint, gpu_type, resource, account, component or category:<name>"],
    ['by=family&by=family', 'by family is given twice; the second grouping must differ'],
    ['by=family&by=template&by=account', 'by is given 3 times; one or two groupings'],
    ['by=category:team&filter=category:env:prod', 'one allocation category per view (each splits the same cost its own way); got team, env'],
    ['granularity=hour', 'granularity must be one of day, week, month'],
    ['preset=lastweek', 'preset must be one of mtd, last-month, 7d, 30d, 90d, ytd'],
    ['metric=profit', 'metric must be cost, gpu_hours or unit_cost:<metric> (a metric of metrics_daily, e.g. unit_cost:images)'],
    ['metric=unit_cost:', 'metric must be cost, gpu_hours or unit_cost:<metric> (a metric of metrics_daily, e.g. unit_cost:images)'],
    ['from=2026-11-01', 'from and to go together (YYYY-MM-DD each), or use preset=mtd|last-month|7d|30d|90d|ytd'],
    ['from=2026-11-31&to=2026-12-01', "from must be a day as YYYY-MM-DD, got '2026-11-31': November 2026 has 30 days"],
    ['from=2026-11-01&to=10000-01-01', "to must be a day as YYYY-MM-DD, got '10000-01-01': years stop at 9999"],
    ['as_of=2026-02-30', "as_of must be a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ), got '2026-02-30': February 2026 has 28 days"],
    ['changed_since=2026-02-30', "changed_since must be a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ), got '2026-02-30': February 2026 has 28 days"],
    ['as_of=2026-02-29T10:00:00Z', "as_of must be a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ), got '2026-02-29T10:00:00Z': February 2026 has 28 days"],
    ['from=2026-11-02&to=2026-11-01', 'from (2026-11-02) is after to (2026-11-01)'],
    ['from=2020-01-01&to=2026-01-01', 'the range covers 2193 days; at most 1100'],
    ['granularity=day&granularity=week', 'granularity is given 2 times; give it once'],
    ['period=2026-11', "unknown parameter 'period': /explore takes from, to, preset, granularity, by, filter, metric, as_of, changed_since"],
    ['as_of=last tuesday', 'as_of must be a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ)'],
    ['changed_since=yesterday', 'changed_since must be a day (YYYY-MM-DD, its end) or a UTC moment (YYYY-MM-DDTHH:MM:SSZ)'],
    ['changed_since=2026-11-02&as_of=2026-11-05', 'changed_since compares the figures then with the figures now; give as_of or changed_since, not both'],
    ['changed_since=2026-11-02&metric=unit_cost:images', 'changed_since compares cost or gpu_hours; a unit cost has no restatement log (use metric=cost)'],
  ])('refuses %s', (query, message) => {
    expect(() => parse(query)).toThrow(message);
  });
});
