// The cost explorer on the demo database, through `gpuledger serve` on 127.0.0.1: for a month every grouping and
// granularity adds up to the month's cost_daily total to the micro-dollar, on the page and in the CSV; a filter and
// an exclusion move the total by exactly the rows they leave out; the CSV is what `gpuledger query` prints for the
// same range, grouping and filters; a bad parameter is one line naming what is accepted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { openStore, type Store } from '../../src/store/database.ts';
import { decimalStringToMicros } from '../../src/util/decimal.ts';
import { silentLogger } from '../../src/util/log.ts';
import { gpuledger } from '../helpers/cli.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { get } from '../helpers/raw-http.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';
import type { TempDir } from '../helpers/temp-dir.ts';

const ALLOCATION = {
  categories: {
    team: {
      rules: [
        { value: 'imaging', match: { endpoint: 'sdxl-*' } },
        { value: 'platform', match: { family: ['storage', 'public_endpoint'] } },
      ],
      default: 'unallocated',
      split: [{ from: 'platform', to: ['imaging'], by: 'proportional' as const }],
    },
  },
};

const MONTH = { from: '2026-11-01', to: '2026-11-30' };
const GROUPINGS = ['family', 'template', 'endpoint', 'gpu_type', 'resource', 'account', 'component', 'category:team'];
const GRANULARITIES = ['day', 'week', 'month'];

/** The CSV's rows as objects (no field of the demo data holds a comma or a quote; the test asserts it). */
function csvRows(body: string): Record<string, string>[] {
  const [head, ...lines] = body.trimEnd().split(/\r?\n/);
  const names = head!.split(',');
  return lines.map((line) => {
    expect(line).not.toMatch(/"/);
    const cells = line.split(',');
    return Object.fromEntries(names.map((n, i) => [n, cells[i]!]));
  });
}

const sumOf = (rows: Record<string, string>[], column: string) => rows.reduce((s, r) => s + decimalStringToMicros(r[column]!), 0n);
/** The page's total: the exact value of the total row's Total cell. */
const pageTotal = (page: string) => {
  const total = /<tr class="total">(.*?)<\/tr>/s.exec(page)![1]!;
  const cells = [...total.matchAll(/data-v="([^"]*)"/g)].map((m) => m[1]!);
  return decimalStringToMicros(cells.at(-3)!);
};

describe('the cost explorer on the demo database', () => {
  let tmp: TempDir;
  let serve: RunningServer;
  let store: Store;
  const total = async (where = 'true') =>
    decimalStringToMicros((await store.one<{ t: string }>(`select coalesce(sum(amount), 0)::varchar as t from cost_daily where day between $1::date and $2::date and ${where}`, [MONTH.from, MONTH.to]))!.t);
  const explore = (params: string, path = '/explore') => get(`${serve.url}${path}?from=${MONTH.from}&to=${MONTH.to}&${params}`);

  beforeAll(async () => {
    tmp = await syncedDatabase('gpuledger-explore-');
    // an anomaly alert that fired on November 10 (as the anomaly rule records one), for the chart to mark
    const writer = await openStore({ path: tmp.db, command: 'test' });
    await writer.run(
      `insert into _meta_alert_events values ('e1', 'anomaly:sim:family:pod', 'fired', 'anomaly', 'sim', 'warning', 1,
         'Spend anomaly: family pod spent $99.00 on 2026-11-10', 'm', '2026-11-11T00:00:00Z', '2026-11-11T00:05:00Z', '{"day": "2026-11-10", "days": ["2026-11-10"]}')`,
    );
    await writer.close();
    const budgets = [{ name: 'pods', period: 'month' as const, amount: '5000', scope: { family: 'pod' as const } }];
    serve = await startServe({ dbPath: tmp.db, config: testConfig({ timeZone: 'UTC', allocation: ALLOCATION, alerts: { budgets } }), host: '127.0.0.1', port: 0, log: silentLogger, cacheAnswers: false });
    store = await openStore({ path: tmp.db, readOnly: true, command: 'test' });
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    await serve?.close();
    tmp?.cleanup();
  });

  it.each(GROUPINGS)('by %s: every granularity adds up to the month total, on the page and in the CSV', async (by) => {
    const month = await total();
    expect(month).toBeGreaterThan(0n);
    for (const granularity of GRANULARITIES) {
      const params = `granularity=${granularity}&by=${encodeURIComponent(by)}`;
      const page = await explore(params);
      expect(page.status, page.body).toBe(200);
      expect(pageTotal(page.body)).toBe(month);
      const csv = await explore(params, '/explore.csv');
      expect(csv.status).toBe(200);
      const rows = csvRows(csv.body);
      expect(sumOf(rows, 'amount')).toBe(month);
      const periods = new Set(rows.map((r) => r.period_start));
      if (granularity === 'month') expect([...periods]).toEqual(['2026-11-01']);
      if (granularity === 'week') for (const p of periods) expect(new Date(`${p}T00:00:00Z`).getUTCDay()).toBe(1);
    }
  });

  it('draws each family in the colour the report and the drill-down give it', async () => {
    // a legend key is a 12×10 box followed by its label
    const keys = (body: string) => new Map([...body.matchAll(/width="12" height="10" fill="(#[0-9a-f]{6})"\/><text[^>]*>([^<]+)<\/text>/g)].map((m) => [m[2]!, m[1]!]));
    const explorer = keys((await explore('by=family')).body);
    const drill = keys((await get(`${serve.url}/drill`)).body);
    const report = keys((await get(`${serve.url}/report/nightly`)).body);
    const labels = ['Pods', 'Serverless', 'Network Volumes', 'Public Endpoints', 'Instant Clusters'];
    for (const label of labels) expect({ label, explorer: explorer.get(label), drill: drill.get(label) }).toEqual({ label, explorer: report.get(label), drill: report.get(label) });
    expect(new Set(labels.map((l) => report.get(l))).size).toBe(labels.length);
  });

  it('two groupings add up to the month total too', async () => {
    const csv = await explore('granularity=week&by=family&by=gpu_type', '/explore.csv');
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0]!)).toEqual(['period_start', 'family_key', 'family_name', 'gpu_type_key', 'gpu_type_name', 'amount']);
    expect(sumOf(rows, 'amount')).toBe(await total());
    const page = await explore('granularity=week&by=family&by=gpu_type');
    expect(pageTotal(page.body)).toBe(await total());
  });

  it('a filter keeps exactly its rows, an exclusion removes exactly its rows', async () => {
    const all = await total();
    const storage = await total(`family = 'storage'`);
    expect(storage).toBeGreaterThan(0n);
    expect(pageTotal((await explore('by=template&filter=-family:storage')).body)).toBe(all - storage);
    expect(pageTotal((await explore('by=template&filter=family:storage')).body)).toBe(storage);
    const pods = await total(`family = 'pod'`);
    expect(pageTotal((await explore('by=family&filter=family:storage&filter=family:pod')).body)).toBe(storage + pods);
  });

  it('the CSV is what gpuledger query prints for the same range, grouping and filters', async () => {
    const csv = await explore('granularity=week&by=resource&filter=-family:storage', '/explore.csv');
    const sql = `with f as (
        select date_trunc('week', day)::date as period_start, coalesce(resource_id, '(none)') as k, resource_name, day, amount
        from cost_daily where day between '${MONTH.from}' and '${MONTH.to}' and family <> 'storage'
      ), names as (select k, arg_max(resource_name, day) as resource_name from f group by k)
      select period_start, k as resource_key, names.resource_name, sum(amount) as amount
      from f join names using (k) group by period_start, k, names.resource_name order by period_start, k`;
    const query = await gpuledger(['query', '--db', tmp.db, '--format', 'csv', '--csv-safe', sql]);
    expect(query.stderr).toBe('');
    expect(csv.body).toBe(query.stdout);
    expect(csvRows(csv.body).length).toBeGreaterThan(3);
  });

  it('marks the top groups as links that add a filter, and keeps names as text', async () => {
    const page = await explore('by=template');
    expect(page.body).toMatch(/href="\/explore\?[^"]*filter=template%3A/);
    expect(page.body).toContain('<svg');
  });

  it('draws a budget only where its scope and period are the view\'s, and marks the day an anomaly fired', async () => {
    const pods = (await explore('granularity=month&by=template&filter=family:pod')).body;
    expect(pods).toContain('Budget pods: $5,000.00 per month');
    expect(pods).toMatch(/class="budget[ "]/);
    for (const other of ['granularity=day&by=template&filter=family:pod', 'granularity=month&by=template', 'granularity=month&by=template&filter=family:pod&filter=-template:x', 'granularity=month&filter=family:serverless']) {
      expect((await explore(other)).body).not.toMatch(/class="budget[ "]/);
    }
    const page = (await explore('by=family')).body;
    expect(page.match(/class="anomaly"/g)).toHaveLength(1);
    expect(page).toContain('an anomaly alert fired on: 2026-11-10');
    // as loaded before the alert was recorded, it had not fired
    expect((await explore('by=family&as_of=2026-11-10')).body).not.toContain('class="anomaly"');
  });

  it.each([
    ['by=colour', /^by 'colour' is not a dimension: use family, template, endpoint, gpu_type, resource, account, component or category:<name>\n$/],
    ['filter=family:nosuch', /^filter family:nosuch: no family 'nosuch' in the data; values include 'cluster', 'pod'/],
    ['filter=category:nosuch:x', /^no allocation category 'nosuch': use category:team\n$/],
    ['granularity=hour', /^granularity must be one of day, week, month\n$/],
    ['metric=profit', /^metric must be cost, gpu_hours or unit_cost:<metric>/],
    ['metric=gpu_hours&by=template', /^metric gpu_hours has no template: use family, endpoint, gpu_type, resource, account\n$/],
    ['colour=red', /^unknown parameter 'colour'/],
    ['as_of=yesterday', /^as_of must be a day/],
  ])('refuses %s with a one-line 400', async (params, message) => {
    for (const path of ['/explore', '/explore.csv']) {
      const res = await explore(params, path);
      expect(res.status).toBe(400);
      expect(res.body).toMatch(message);
      expect(res.body.trimEnd().split('\n')).toHaveLength(1);
    }
  });

  it('divides the cost by a metric\'s whole-account quantity for a unit cost, exactly', async () => {
    const quantity = decimalStringToMicros(
      (await store.one<{ q: string }>(`select sum(value)::varchar as q from metrics_daily where metric = 'gpu_hours' and scope = '' and day between $1::date and $2::date`, [MONTH.from, MONTH.to]))!.q,
    );
    const cost = await total();
    // cost ÷ quantity to the micro-dollar, half up
    const expected = (cost * 1_000_000n * 2n / quantity + 1n) / 2n;
    const page = await explore('granularity=month&by=family&metric=unit_cost:gpu_hours');
    expect(page.status, page.body).toBe(200);
    expect(pageTotal(page.body)).toBe(expected);
    expect(page.body).toContain('Cost per gpu_hours by Family');
    const rows = csvRows((await explore('granularity=month&by=family&metric=unit_cost:gpu_hours', '/explore.csv')).body);
    expect(Object.keys(rows[0]!)).toEqual(['period_start', 'family_key', 'family_name', 'amount', 'quantity', 'unit_cost']);
    expect(sumOf(rows, 'amount')).toBe(cost);
    for (const row of rows) {
      expect(decimalStringToMicros(row.quantity!)).toBe(quantity);
      expect(decimalStringToMicros(row.unit_cost!)).toBe((decimalStringToMicros(row.amount!) * 2_000_000n / quantity + 1n) / 2n);
    }
    const refused = await explore('metric=unit_cost:images');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatch(/^no metric 'images' with a whole-account quantity in metrics_daily: use unit_cost:gpu_hours/);
  });

  it('adds up GPU-hours to gpu_hours_daily', async () => {
    const expected = decimalStringToMicros(
      (await store.one<{ t: string }>(`select sum(gpu_hours)::varchar as t from gpu_hours_daily where day between $1::date and $2::date`, [MONTH.from, MONTH.to]))!.t,
    );
    const csv = await explore('metric=gpu_hours&by=gpu_type', '/explore.csv');
    const rows = csvRows(csv.body);
    expect(Object.keys(rows[0]!).at(-1)).toBe('gpu_hours');
    expect(sumOf(rows, 'gpu_hours')).toBe(expected);
  });
});
