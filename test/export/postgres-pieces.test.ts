// The pure parts of `export postgres`: the connection URL (no password, ever), the type mapping that keeps money
// exact, which slices a re-export rewrites, and which views are computed once per export.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePostgresUrl } from '../../src/config/postgres-url.ts';
import { parseConfig } from '../../src/config/load.ts';
import { mirroredColumn } from '../../src/export/postgres/column-types.ts';
import { READ_IN_PLACE, viewsToMaterialize } from '../../src/export/postgres/materialize.ts';
import { MIRRORED_RELATIONS } from '../../src/export/postgres/relations.ts';
import { diffSlices, sliceKey, type Slice } from '../../src/export/postgres/slice-diff.ts';
import { resolvePostgresTarget } from '../../src/export/postgres/target.ts';
import { listPublicViews } from '../../src/query/public-views.ts';
import { listViewFiles } from '../../src/transform/views.ts';

describe('the PostgreSQL URL', () => {
  it('reads user, host, port, database and sslmode, and shows itself without a password', () => {
    expect(parsePostgresUrl('postgres://bi_writer@db.internal:6543/finance?sslmode=verify-full')).toEqual({
      user: 'bi_writer', host: 'db.internal', port: 6543, database: 'finance', sslmode: 'verify-full',
      display: 'postgres://db.internal:6543/finance?sslmode=verify-full',
    });
    expect(parsePostgresUrl('postgresql://u@[::1]/d')).toMatchObject({ host: '::1', port: 5432 });
  });

  it('refuses a password in the URL without repeating it', () => {
    const error = parsePostgresUrl('postgres://u:s3cret-pass@h/d');
    expect(error).toMatch(/^carries a password; leave it out of the URL/);
    expect(String(error)).not.toContain('s3cret-pass');
  });

  it('says what is accepted for other mistakes', () => {
    expect(parsePostgresUrl('mysql://u@h/d')).toMatch(/must start with postgres:\/\//);
    expect(parsePostgresUrl('postgres://h/d')).toMatch(/names no user/);
    expect(parsePostgresUrl('postgres://u@h')).toMatch(/names no database/);
    expect(parsePostgresUrl('postgres://u@h/d?sslmode=prefer')).toMatch(/sslmode must be disable, require, verify-full/);
    expect(parsePostgresUrl('postgres://u@h/d?options=-c')).toMatch(/unknown parameter 'options'/);
  });

  it('the config refuses a password in export.postgres.url, and the flags win over the config', () => {
    expect(() => parseConfig({ export: { postgres: { url: 'postgres://u:pw-in-file@h/d' } } }, 'test')).toThrow(/export\.postgres\.url: the URL carries a password/);
    const config = parseConfig({ export: { postgres: { url: 'postgres://u@h/d', passwordEnv: 'BI_PG_PASSWORD', schema: 'costs' } } }, 'test');
    expect(resolvePostgresTarget(config)).toMatchObject({ schema: 'costs', passwordEnv: 'BI_PG_PASSWORD', url: { host: 'h' } });
    expect(resolvePostgresTarget(config, { url: 'postgres://v@k/e', schema: 'other' })).toMatchObject({ schema: 'other', url: { user: 'v', host: 'k' } });
    expect(() => resolvePostgresTarget(parseConfig({}, 'test'))).toThrow(/needs --url/);
  });
});

describe('column types', () => {
  it('keeps DECIMAL as numeric with the same precision and scale', () => {
    expect(mirroredColumn('t', 'amount', 'DECIMAL(38,6)').pgType).toBe('numeric(38,6)');
    expect(mirroredColumn('t', 'unit_cost', 'DECIMAL(38,9)').pgType).toBe('numeric(38,9)');
  });

  it('sends lists as JSON and refuses a type it has no mapping for', () => {
    expect(mirroredColumn('dim_endpoint', 'gpu_pools', 'VARCHAR[]')).toMatchObject({ pgType: 'jsonb', expression: 'to_json("gpu_pools")::varchar as "gpu_pools"' });
    expect(() => mirroredColumn('t', 'x', 'BIT')).toThrow(/t\.x has DuckDB type BIT, which has no PostgreSQL mapping yet/);
  });
});

describe('which slices a re-export rewrites', () => {
  const slice = (account: string, day: string, fingerprint: string): [string, Slice] => [sliceKey(account, day), { account, day, fingerprint, rows: 1 }];

  it('rewrites changed and new days, removes vanished ones, and leaves equal ones alone', () => {
    const previous = new Map([slice('a', '2026-11-01', 'x'), slice('a', '2026-11-02', 'y'), slice('b', '2026-11-01', 'z')]);
    const current = new Map([slice('a', '2026-11-01', 'x'), slice('a', '2026-11-02', 'y2'), slice('a', '2026-11-03', 'w')]);
    const { write, remove } = diffSlices(current, previous);
    expect(write.map((s) => `${s.account}/${s.day}`)).toEqual(['a/2026-11-02', 'a/2026-11-03']);
    expect(remove.map((s) => `${s.account}/${s.day}`)).toEqual(['b/2026-11-01']);
  });
});

describe('what an export mirrors and computes', () => {
  it('mirrors only public views, each once, under its own name (freshness: rpt_data_freshness)', () => {
    const views = new Set(listPublicViews().map((v) => v.name));
    for (const r of MIRRORED_RELATIONS) {
      expect(views.has(r.view), r.view).toBe(true);
      expect(r.table === r.view || (r.table === 'freshness' && r.view === 'rpt_data_freshness'), r.table).toBe(true);
    }
    expect(new Set(MIRRORED_RELATIONS.map((r) => r.table)).size).toBe(MIRRORED_RELATIONS.length);
  });

  it('docs/postgres.md names every mirrored table and the indexes each day table gets', () => {
    const doc = readFileSync(new URL('../../docs/postgres.md', import.meta.url), 'utf8');
    for (const r of MIRRORED_RELATIONS) {
      expect(doc, r.table).toContain(`\`${r.table}\``);
      if (r.grain === 'day') for (const index of r.indexes) expect(doc, `${r.table} (${index.join(', ')})`).toContain(`\`(${index.join(', ')})\``);
    }
  });

  it('computes each mirrored view once, and a shared block such as report_clock before the views that read it', () => {
    const order = viewsToMaterialize(MIRRORED_RELATIONS.map((r) => r.view));
    for (const r of MIRRORED_RELATIONS) expect(order.includes(r.view) || READ_IN_PLACE.has(r.view)).toBe(true);
    expect(order.indexOf('report_clock')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('spend_periods')).toBeLessThan(order.indexOf('rpt_spend_daily'));
    expect(order.indexOf('report_clock')).toBeLessThan(order.indexOf('rpt_by_template'));
    // a column named cost is not a read of the view cost
    expect(order).not.toContain('cost');
  });

  it('reads cost_daily and its kind in place: each only lists the columns of its fct_ table, which is never copied', () => {
    const order = viewsToMaterialize(MIRRORED_RELATIONS.map((r) => r.view));
    const files = new Map(listViewFiles().map((f) => [f.name, f.sql]));
    for (const [view, table] of READ_IN_PLACE) {
      expect(order).not.toContain(view);
      const code = files.get(view)!.replace(/--[^\n]*/g, ' ').toLowerCase();
      // one read, of its table; no join, grouping or window that would make a copy worth its cost
      expect({ view, reads: [...code.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)/g)].map((m) => m[1]).filter((n) => n !== 'facts' && n !== 'final') }).toEqual({ view, reads: [table] });
      expect({ view, heavy: /\b(group by|join|over|distinct|union|qualify)\b/.test(code) }).toEqual({ view, heavy: false });
    }
  });
});
