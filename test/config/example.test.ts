// The example config in config/ is what users copy: it must stay valid as the schema grows. Without a config file of
// the user's own, the demo runs on it too (src/config/demo-database.ts) – minus everything that reaches beyond the
// machine – so its allocation, budgets and unit-cost thresholds are what a new user sees first.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { demoBaseConfig } from '../../src/config/demo-database.ts';
import { parseConfig } from '../../src/config/load.ts';

describe('config/gpuledger.example.json', () => {
  it('parses with every section the README documents', () => {
    const raw = JSON.parse(readFileSync(new URL('../../config/gpuledger.example.json', import.meta.url), 'utf8'));
    const config = parseConfig(raw, 'config/gpuledger.example.json');
    expect(config.accounts.map((a) => a.name)).toEqual(['prod', 'research']);
    expect(config.alerts.budgets.map((b) => b.amount)).toEqual(['25000', '3000', '2500']);
    expect(config.alerts.channels.map((c) => c.type)).toEqual(['stdout', 'file', 'webhook', 'email']);
    expect(config.schedule.jobs.map((j) => j.cron)).toEqual(['15 * * * *', '0 6 * * *', '0 7 1 * *', '0 7 * * 1']);
    expect(config.views.map((v) => v.name)).toEqual(['imaging-90d', 'gpu-by-week', 'top-templates-mtd']);
    expect(Object.keys(config.allocation.categories)).toEqual(['team']);
    expect(config.reports.budget?.monthly).toBe('25000');
  });

  it('is the demo\'s config when the user has none: its allocation and budgets, one simulated account, nothing that leaves the machine', () => {
    const demo = demoBaseConfig(parseConfig({}, '(defaults)'), undefined);
    expect(demo.accounts).toEqual([{ name: 'demo', apiKeyEnv: 'GPULEDGER_DEMO_KEY', simulated: true }]);
    expect(Object.keys(demo.allocation.categories)).toEqual(['team']);
    expect(demo.alerts.budgets.map((b) => b.name)).toEqual(['account', 'sdxl', 'imaging-team']);
    expect(demo.reports.budget?.monthly).toBe('25000');
    expect(demo.smtp).toBeUndefined();
    expect(demo.export.postgres).toBeUndefined();
    expect(demo.reports.delivery).toEqual({});
    expect(demo.alerts.channels.map((c) => c.type)).toEqual(['stdout', 'file']);
    // the saved views come along: serve on the demo lists them, `report --view imaging-90d` renders one
    expect(demo.views.map((v) => v.name)).toEqual(['imaging-90d', 'gpu-by-week', 'top-templates-mtd']);
    expect(demo.database).toBe('data/gpuledger.duckdb');
  });

  it('keeps the user\'s own config for the demo, minus its accounts, SMTP, recipients, channels and export', () => {
    const own = parseConfig(
      {
        accounts: [{ name: 'prod' }],
        allocation: { categories: { project: { rules: [{ value: 'x', match: { family: 'pod' } }] } } },
        smtp: { host: 'smtp.example.com', from: 'a@example.com' },
        reports: { delivery: { nightly: { recipients: ['a@example.com'] } } },
        export: { postgres: { url: 'postgres://u@h:5432/d' } },
      },
      'own',
    );
    const demo = demoBaseConfig(own, '/somewhere/gpuledger.config.json');
    expect(Object.keys(demo.allocation.categories)).toEqual(['project']);
    expect(demo.accounts.map((a) => a.name)).toEqual(['demo']);
    expect(demo.smtp).toBeUndefined();
    expect(demo.export.postgres).toBeUndefined();
    expect(demo.reports.delivery).toEqual({});
  });
});
