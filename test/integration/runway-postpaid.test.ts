// Runway that fits the account (issue 36 §5), end to end over the simulator's HTTP API: a post-paid (invoiced)
// account synced night after night is recognised from its balance (billing auto), gets no runway alert on any night,
// and reads "invoiced (post-paid)" in the report page, the workbook cell and serve's rpt_runway page, with its month
// to date as the figure to watch; the config's billing flag makes a prepaid account post-paid, and a prepaid account
// under 72 hours is warned with the $0 deadline and what is deleted then.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAlerts } from '../../src/alert/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { columnsOf } from '../../src/query/column-kinds.ts';
import { sectionId } from '../../src/report/html/index.ts';
import { dataTable } from '../../src/present/index.ts';
import { renderReportFormats } from '../../src/report/index.ts';
import { sandboxTable } from '../../src/serve/pages.ts';
import type { Store } from '../../src/store/database.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { blockTable, htmlSection } from '../helpers/surface-read.ts';
import { openTestStore, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { readWorkbook, sheet } from '../helpers/workbook-read.ts';

const DAY = 86_400_000;

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

/** The config of these tests: only the runway rule, so each event here is one the runway rule sent. */
const onlyRunway = (config: ConfigInput) =>
  parseConfig({ ...config, alerts: { anomaly: { enabled: false }, waste: { enabled: false }, dataQuality: { enabled: false } } }, 'test');

async function runwayEvents(store: Store, config: ConfigInput, outDir: string, now: Date) {
  const result = await runAlerts({ store, config: onlyRunway(config), outDir, stdout: new Collect(), now });
  return result.events.filter((e) => e.key.startsWith('runway')).map((e) => `${e.event} ${e.key} ${e.severity}`);
}

describe('a post-paid account synced over several days', () => {
  it('is recognised from its balance, gets no runway alert on any night, and reads invoiced (post-paid) on every surface', async () => {
    const account = await simulatedAccount('gpuledger-postpaid-', async ({ sim, tmp }) => ({ config: smallSyncConfig(sim, { outDir: tmp.dir }), store: await openTestStore(tmp.db) }), { postpaid: true });
    const { sim, tmp, config, store } = account;
    try {
      const events: string[] = [];
      for (let night = 0; night < 4; night++) {
        if (night > 0) sim.advance(DAY);
        const result = await syncOnce(store, config);
        expect(result.status).toBe('success');
        events.push(...(await runwayEvents(store, config, tmp.dir, sim.now())));
      }
      expect(events).toEqual([]);
      // the benchmark's path (alerts --dry-run --as-of, issue 36 §1): a back-test of each night is as quiet
      for (let night = 0; night < 4; night++) {
        const asOf = new Date(sim.now().getTime() - night * DAY + 60_000);
        for (const withRestatements of [false, true]) {
          const back = await runAlerts({ store, config: onlyRunway(config), outDir: tmp.dir, stdout: new Collect(), dryRun: true, asOf, withRestatements });
          expect(back.events.filter((e) => e.key.startsWith('runway')).map((e) => `${asOf.toISOString()} ${e.key}`)).toEqual([]);
        }
      }
      const observed = await store.all<{ balance: string }>('select balance::varchar as balance from rpt_runway_history order by observed_at');
      expect(observed).toHaveLength(4);
      expect(observed.every((o) => Number(o.balance) < 0)).toBe(true);

      const row = (await store.one<Record<string, string | null>>(
        `select billing_model, billing_basis, billing_evidence, runway_hours, runs_out_at, runway_note, balance::varchar as balance, month_to_date::varchar as month_to_date from rpt_runway`,
      ))!;
      expect(row).toMatchObject({ billing_model: 'postpaid', billing_basis: 'detected', runway_hours: null, runs_out_at: null });
      expect(row.billing_evidence).toMatch(/^post-paid: the balance read \$0 or below at 4 syncs since .* while pods billed \$[\d.]+ from /);
      expect(row.runway_note).toBe('invoiced (post-paid): no runway – the month-to-date spend is the figure to watch');
      // what the platform reads as the balance is the month's usage not yet invoiced: the month to date, within the
      // hour or so the open day's buckets lag
      expect(Number(row.month_to_date)).toBeGreaterThan(0);
      expect(Math.abs(Number(row.month_to_date) + Number(row.balance))).toBeLessThan(Number(row.month_to_date) * 0.02);

      const out = await renderReportFormats({ store, config: testConfig({ timeZone: 'UTC' }), report: 'nightly', outDir: join(tmp.dir, 'report'), formats: ['xlsx', 'html'] });
      const page = blockTable(htmlSection(readFileSync(out.html!.path, 'utf8'), sectionId('Summary')), 'Prepaid balance and runway');
      const cell = (header: string) => page.rows[0]![page.headers.indexOf(header)]!.text;
      expect(cell('Billing')).toBe('invoiced (post-paid)');
      expect(cell('Runway')).toBe('–');
      expect(cell('Basis')).toMatch(/^invoiced \(post-paid\): no runway, the month to date is the figure to watch – post-paid: the balance read \$0 or below/);
      expect(cell('Month to date')).toMatch(/^\$[\d,]+\.\d\d$/);

      const ws = sheet(await readWorkbook(out.workbook!.path), 'Summary');
      let book: { billing: unknown; runway: unknown; mtd: unknown } | undefined;
      ws.eachRow((r, n) => {
        if (r.getCell(1).value !== 'Account' || r.getCell(2).value !== 'Balance') return;
        // the cells under their headings, wherever the definition puts the columns
        const at = (header: string) => {
          let column = 0;
          r.eachCell((c, i) => (c.value === header ? (column = i) : undefined));
          return ws.getRow(n + 1).getCell(column).value;
        };
        book = { billing: at('Billing'), runway: at('Runway'), mtd: at('Month to date') };
      });
      expect(book).toEqual({ billing: 'invoiced (post-paid)', runway: null, mtd: Number(row.month_to_date) });

      const all = await store.connection.runAndReadAll('select * from rpt_runway');
      // as serve's view page draws it: the sandbox's columns in present's table
      const table = sandboxTable({ columns: columnsOf(all.columnNames(), all.columnTypes()), rows: all.getRowsJson() });
      const served = dataTable({ ...table, label: 'rpt_runway', timeZone: 'UTC' }).text;
      expect(served).toContain('invoiced (post-paid): no runway – the month-to-date spend is the figure to watch');
    } finally {
      await account.stop();
    }
  }, 240_000);
});

describe('the billing flag and the prepaid deadline', () => {
  it('billing: "postpaid" in the config silences the runway of a prepaid account even at a few hours; prepaid is warned with the $0 deadline', async () => {
    const account = await simulatedAccount('gpuledger-billing-flag-', async ({ sim, tmp }) => ({ config: smallSyncConfig(sim, { outDir: tmp.dir }), store: await openTestStore(tmp.db) }));
    const { sim, tmp, config, store } = account;
    try {
      // the simulator's planted low moment: a runway of hours, just before the manual top-up
      const low = sim.balance.lowPoint()!;
      sim.setNow(new Date(low.at.getTime() - 60_000));
      expect((await syncOnce(store, config)).status).toBe('success');
      const prepaid = await runAlerts({ store, config: onlyRunway(config), outDir: tmp.dir, stdout: new Collect(), now: sim.now() });
      const warned = prepaid.events.find((e) => e.key === 'runway:sim')!;
      expect(warned.severity).toBe('critical');
      expect(warned.title).toMatch(/^Runway: sim has about \d+ hours? of credit left \(\$[\d,.]+ at \$[\d,.]+\/h\); \$0 around \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(warned.message).toMatch(
        /\$0 is the deadline: around \S+ every running pod stops and pods without a network volume are deleted with their data – the platform documents no grace period \(balance-and-queue\.md §2\)/,
      );
      expect(warned.message).toMatch(/running pod\(s\) without a network volume would be terminated with their data: /);

      const flagged: ConfigInput = { ...config, accounts: [{ name: 'sim', apiKeyEnv: 'GPULEDGER_TEST_KEY', simulated: true, billing: 'postpaid' }] };
      expect((await syncOnce(store, flagged, { sources: ['balance'] })).status).toBe('success');
      expect(await store.one('select billing_model, billing_basis, billing_evidence, runway_hours from rpt_runway')).toEqual({
        billing_model: 'postpaid',
        billing_basis: 'config',
        billing_evidence: 'the config says billing: postpaid',
        runway_hours: null,
      });
      // the open runway alert clears once: the account does not run out
      const open = prepaid.events.filter((e) => e.key.startsWith('runway')).map((e) => e.key);
      expect(open).toContain('runway:sim');
      const cleared = await runwayEvents(store, flagged, tmp.dir, sim.now());
      expect(cleared.map((e) => e.split(' ').slice(0, 2).join(' ')).sort()).toEqual(open.map((k) => `resolved ${k}`).sort());
      sim.advance(3_600_000);
      expect((await syncOnce(store, flagged, { sources: ['balance'] })).status).toBe('success');
      expect(await runwayEvents(store, flagged, tmp.dir, sim.now())).toEqual([]);
    } finally {
      await account.stop();
    }
  }, 240_000);
});
