// /drill is the explorer's presets (issue 41 point 1): each level reads the explorer's query over the semantic layer's
// dimensions, and its old URLs still answer the figures its own engine gave. The reference here is that engine's SQL
// as it was (a group key over rpt_cost_detail, its sum and its share), run on the synced database before the server
// opens it; every level of a walk through the old URLs – all families, each family's templates, endpoints and GPU
// types, a value's resources, a resource's days and components – is read off the page served over HTTP, row by row
// and to the micro-dollar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { openStore } from '../../src/store/database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { testConfig } from '../helpers/report-fixtures.ts';
import { readHtmlTables } from '../helpers/html-read.ts';
import { syncedDatabase } from '../helpers/synced-fixture.ts';
import type { TempDir } from '../helpers/temp-dir.ts';

const PERIOD = { start: '2026-11-01', end: '2026-11-20' };

/** The old engine's SQL of a level: its group key, each group's sum, the level's filters (bound). */
const OLD_KEYS = {
  family: 'family',
  template: "coalesce(template_name, '(none)')",
  endpoint: "coalesce(endpoint_name, '(none)')",
  gpu_type: "coalesce(gpu_type_name, '(none)')",
  resource: 'resource_id',
  component: 'component',
  day: 'day::varchar',
} as const;

interface OldPath {
  family?: string;
  by?: 'template' | 'endpoint' | 'gpu_type';
  value?: string;
  resource?: string;
}

type Figures = Map<string, string>;

describe('/drill as presets of the explorer', () => {
  let tmp: TempDir;
  let serve: RunningServer;
  /** url → section id → key → amount, as the old engine computed them. */
  const expected = new Map<string, Map<string, Figures>>();

  const url = (p: OldPath) => {
    const q = new URLSearchParams({ period: `${PERIOD.start}..${PERIOD.end}` });
    for (const [k, v] of Object.entries(p)) if (v !== undefined) q.set(k, v);
    return `/drill?${q}`;
  };

  beforeAll(async () => {
    tmp = await syncedDatabase('gpuledger-drill-presets-');
    const store = await openStore({ path: tmp.db, readOnly: true });
    try {
      const old = async (p: OldPath, key: keyof typeof OLD_KEYS): Promise<Figures> => {
        const where = ['day between $start::date and $end::date'];
        const params: Record<string, string> = { ...PERIOD };
        if (p.family) (where.push('family = $family'), (params.family = p.family));
        if (p.by && p.value !== undefined) (where.push(`${OLD_KEYS[p.by]} = $value`), (params.value = p.value));
        if (p.resource) (where.push('resource_id = $resource'), (params.resource = p.resource));
        const rows = await store.all<{ k: string; amount: string }>(`select ${OLD_KEYS[key]} as k, sum(amount)::varchar as amount from rpt_cost_detail where ${where.join(' and ')} group by 1`, params);
        return new Map(rows.map((r) => [r.k, r.amount]));
      };
      const top = (f: Figures) => [...f.entries()].sort((a, b) => Number(b[1]) - Number(a[1]))[0]![0];
      const families = await old({}, 'family');
      expected.set(url({}), new Map([['s-families', families]]));
      for (const family of families.keys()) {
        const levels = new Map<string, Figures>();
        for (const by of ['template', 'endpoint', 'gpu_type'] as const) levels.set(`s-${by}`, await old({ family }, by));
        expected.set(url({ family }), levels);
      }
      const family = top(families);
      const value = top(await old({ family }, 'template'));
      const resources = await old({ family, by: 'template', value }, 'resource');
      expected.set(url({ family, by: 'template', value }), new Map([['s-resources', resources]]));
      const resource = top(resources);
      const p = { family, by: 'template', value, resource } as const;
      expected.set(url(p), new Map([['s-resource', await old(p, 'day')], ['s-components', await old(p, 'component')]]));
    } finally {
      await store.close();
    }
    serve = await startServe({ dbPath: tmp.db, config: testConfig({ timeZone: 'UTC' }), host: '127.0.0.1', port: 0, log: silentLogger, warmPages: false });
  });

  afterAll(async () => {
    await serve?.close();
    tmp?.cleanup();
  });

  it("answers every old URL's levels with the old engine's figures, group by group, to the micro-dollar", async () => {
    // the walk covers every kind of level
    expect([...expected.values()].flatMap((l) => [...l.keys()]).sort()).toEqual(expect.arrayContaining(['s-components', 's-endpoint', 's-families', 's-gpu_type', 's-resource', 's-resources', 's-template']));
    let groups = 0;
    for (const [path, levels] of expected) {
      const res = await fetch(`${serve.url}${path}`);
      expect(res.status, path).toBe(200);
      const tables = readHtmlTables(await res.text());
      for (const [id, want] of levels) {
        const t = tables.get(id);
        expect(t, `${path} #${id}`).toBeDefined();
        // the key column is the first, or the second beside a name; the amount the last
        const keyAt = t!.fields[0] === 'resource_name' || t!.fields[0] === 'family_label' ? 1 : 0;
        const shown = new Map(t!.rows.map((r) => [r[keyAt]!, r.at(-1)!]));
        expect(shown, `${path} #${id}`).toEqual(want);
        const total = [...want.values()].reduce((a, v) => a + BigInt(v.replace('.', '')), 0n);
        expect(BigInt(t!.totals!.at(-1)!.replace('.', '')), `${path} #${id} total`).toBe(total);
        groups += want.size;
      }
    }
    expect(groups).toBeGreaterThan(10);
  });
});
