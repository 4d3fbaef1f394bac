import { describe, expect, it } from 'vitest';
import { gpuledger } from '../helpers/cli.ts';

interface Listed {
  view: string;
  layer: string;
  internal?: boolean;
  description: string;
}

const parse = (stdout: string) => stdout.trim().split('\n').map((l) => JSON.parse(l) as Listed);

describe('gpuledger views', () => {
  it('lists the public views with what one row is, in one line, leaving out the internal stg_* and int_* views', async () => {
    const r = await gpuledger(['views', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const views = parse(r.stdout);
    const names = views.map((v) => v.view);
    for (const name of ['billing_pods', 'cost', 'cost_daily', 'report_clock', 'dim_resource', 'dim_gpu_type', 'focus_cost', 'rpt_waste', 'rpt_month_forecast']) {
      expect(names).toContain(name);
    }
    expect(names.filter((n) => /^(int|stg)_/.test(n))).toEqual([]);
    expect(views.find((v) => v.view === 'cost')).toMatchObject({ layer: 'marts', description: expect.stringMatching(/^One row per billing record/) });
    for (const v of views) {
      expect(v.description.length, v.view).toBeGreaterThan(10);
      expect(v.description.length, v.view).toBeLessThanOrEqual(150);
      expect(v.description, v.view).not.toMatch(/\n|\.md\b|\.sql\b|\.ts\b|§|\bGET \//);
    }
  });

  it('with --all, adds the internal views after the public ones, marked internal', async () => {
    const r = await gpuledger(['views', '--all', '--format', 'ndjson']);
    expect(r.code).toBe(0);
    const views = parse(r.stdout);
    const firstInternal = views.findIndex((v) => v.internal);
    expect(firstInternal).toBeGreaterThan(0);
    expect(views.slice(0, firstInternal).every((v) => v.internal === false && !/^(int|stg)_/.test(v.view))).toBe(true);
    expect(views.slice(firstInternal).every((v) => v.internal === true && /^(int|stg)_/.test(v.view))).toBe(true);
    expect(views.map((v) => v.view)).toEqual(expect.arrayContaining(['stg_pods', 'int_serverless_timeline']));
  });

  it('on a terminal table, lists the internal views apart under their own heading', async () => {
    const r = await gpuledger(['views', '--all', '--format', 'table']);
    expect(r.code).toBe(0);
    const [publicPart, internalPart] = r.stdout.split(/\nInternal views[^\n]*\n/);
    expect(publicPart).toMatch(/^rpt_waste /m);
    expect(publicPart).not.toMatch(/^(stg|int)_/m);
    expect(internalPart).toMatch(/^stg_pods /m);
    expect(internalPart).not.toMatch(/^rpt_/m);
  });
});
