// The metrics file checks, without a database: CSV reading with the file's own line numbers, and one line naming
// the line and field of the first bad row.
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load.ts';
import { checkMetricRows, MAX_METRIC_VALUE, MetricsFileError } from '../../src/metrics/metric-rows.ts';
import { queueApiUrlFor } from '../../src/metrics/queue-url.ts';
import { readMetricsCsv } from '../../src/metrics/read-csv.ts';
import { checkScope } from '../../src/metrics/scope.ts';

const check = (csv: string, categories: string[] = []) => checkMetricRows('m.csv', readMetricsCsv(csv, 'm.csv'), categories);
const problem = (csv: string, categories: string[] = []) => {
  try {
    check(csv, categories);
  } catch (e) {
    expect(e).toBeInstanceOf(MetricsFileError);
    expect((e as MetricsFileError).exitCode).toBe(2);
    return (e as Error).message;
  }
  throw new Error('accepted');
};

describe('metrics file rows', () => {
  it('reads quoted fields, any column order, blank lines and CRLF, keeping the exact value text', () => {
    const rows = check('\uFEFFscope,value,metric,date\r\n"endpoint:a,b",0.125,images,2026-11-01\r\n\r\n,12,customers,2026-11-02\r\n');
    expect(rows).toEqual([
      { line: 2, day: '2026-11-01', metric: 'images', value: '0.125', scope: 'endpoint:a,b', account: '' },
      { line: 4, day: '2026-11-02', metric: 'customers', value: '12', scope: '', account: '' },
    ]);
    expect(check('date,metric,value,account\n2026-11-01,images,1, team-a \n2026-11-01,images,2,team-b\n').map((r) => r.account)).toEqual(['team-a', 'team-b']);
  });

  it.each([
    ['date,metric,value,scope\n2026-02-30,images,1,\n', "m.csv line 2, field date: '2026-02-30' is not a UTC day YYYY-MM-DD"],
    ['date,metric,value,scope\n2026-02-01,images,1,\n2026-02-02,images,-1,\n', "m.csv line 3, field value: negative value '-1'; a metric value is ≥ 0"],
    ['date,metric,value,scope\n2026-02-01,images,ten,\n', "m.csv line 2, field value: 'ten' is not a non-negative decimal (e.g. 1250 or 0.75)"],
    ['date,metric,value,scope\n2026-02-01,images,1e3,\n', "m.csv line 2, field value: '1e3' is not a non-negative decimal (e.g. 1250 or 0.75)"],
    ['date,metric,value,scope\n2026-02-01,images,1,family:gpu\n', "m.csv line 2, field scope: unknown family 'gpu'; expected pod, serverless, storage, public_endpoint or cluster"],
    ['date,metric,value,scope\n2026-02-01,images,1,\n2026-02-01,images,2,\n', "m.csv line 3, field date: 2026-02-01 images '' is already given on line 2; one value per day, metric and scope"],
    ['date,metric,scope\n2026-02-01,images,\n', 'm.csv line 1: the header has no value column; expected date, metric, value, scope (optional), account (optional)'],
    // an ignored column once put every row into one account
    ['date,metric,value,acount\n2026-02-01,images,1,team-a\n', "m.csv line 1: the header has a column 'acount' that gpuledger does not read; expected date, metric, value, scope (optional), account (optional)"],
    ['date,metric,value,account\n2026-02-01,images,1,a\n2026-02-01,images,2,b\n2026-02-01,images,3,a\n', "m.csv line 4, field date: 2026-02-01 images '' is already given on line 2; one value per day, metric and scope"],
  ])('refuses %j', (csv, message) => {
    expect(problem(csv)).toBe(message);
  });

  it('accepts values up to the largest a unit cost can be computed from, and refuses one digit more', () => {
    expect(check(`date,metric,value,scope\n2026-02-01,images,${MAX_METRIC_VALUE},\n2026-02-02,images,000000000000000000001,\n`).map((r) => r.value)).toEqual([
      MAX_METRIC_VALUE,
      '000000000000000000001',
    ]);
    expect(problem('date,metric,value,scope\n2026-02-01,images,1000000000000000,\n')).toBe(
      `m.csv line 2, field value: value '1000000000000000' is larger than ${MAX_METRIC_VALUE}, the largest a unit cost can be computed from`,
    );
    expect(problem(`date,metric,value,scope\n2026-02-01,images,${'9'.repeat(32)},\n`)).toMatch(/field value: value '9{32}' is larger than/);
  });

  it('knows the built-in scope kinds and the configured allocation categories, nothing else', () => {
    expect(checkScope(' endpoint : sdxl ', [])).toEqual({ ok: true, scope: 'endpoint:sdxl' });
    expect(checkScope('team:imaging', ['team'])).toEqual({ ok: true, scope: 'team:imaging' });
    expect(problem('date,metric,value,scope\n2026-02-01,images,1,team:imaging\n')).toMatch(/^m\.csv line 2, field scope: unknown scope kind 'team'/);
    expect(checkScope('gpuType:NVIDIA RTX  A6000', []).ok).toBe(true);
  });
});

describe('queue API URL', () => {
  it('is flag > env > config, and otherwise the platform queue host for the platform API and the API URL itself elsewhere', () => {
    expect(resolveSettings({ queueApiUrl: 'http://127.0.0.1:9/' }, { GPULEDGER_QUEUE_API_URL: 'http://x' }, '/nonexistent').queueApiUrl).toBe('http://127.0.0.1:9');
    const fromEnv = resolveSettings({}, { GPULEDGER_QUEUE_API_URL: 'https://queue.example' }, '/nonexistent');
    expect(fromEnv.config.queueApiUrl).toBe('https://queue.example');
    const none = resolveSettings({}, {}, '/nonexistent');
    expect(none.queueApiUrl).toBeUndefined();
    expect(queueApiUrlFor(none.config.queueApiUrl, none.apiUrl)).toBe('https://api.runpod.ai');
    expect(queueApiUrlFor(undefined, 'http://127.0.0.1:8787/')).toBe('http://127.0.0.1:8787');
  });
});
