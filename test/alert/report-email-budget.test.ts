// The report email of the nightly run has a time budget: a server that keeps saying "try again later" costs one
// attempt when the next wait would end after the budget, instead of minutes of doubling backoff – and the delivery
// record says why it stopped. (Beside the alert tests because it is the same per-run budget.)
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverReport } from '../../src/report/delivery/deliver.ts';
import { renderReport, type RenderedReport } from '../../src/report/render.ts';
import type { Store } from '../../src/store/database.ts';
import { FIXTURE_REPORT, fixtureStore, testConfig, writeDefinition } from '../helpers/report-fixtures.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('the report email within a time budget', () => {
  let dir: string;
  let store: Store;
  let rendered: RenderedReport;
  let smtp: TestSmtp;

  beforeAll(async () => {
    dir = tempDir('gpuledger-report-').dir;
    store = await fixtureStore(dir);
    writeDefinition(dir, 'fixture', FIXTURE_REPORT);
    rendered = await renderReport({ store, config: testConfig({ reports: { directory: dir } }), report: 'fixture', period: '2026-10', outDir: join(dir, 'out') });
    smtp = await startSmtp({ failDataTimes: 10 });
  });
  afterAll(async () => {
    await smtp?.close();
    await store?.close();
  });

  it('does not start a retry that would end after the budget', async () => {
    const waits: number[] = [];
    const config = testConfig({
      reports: { directory: dir, delivery: { fixture: { recipients: ['finance@example.com'] } }, email: { attempts: 3, retryDelaySeconds: 30 } },
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'gpuledger <finops@example.com>', timeoutSeconds: 10 },
    });
    const result = await deliverReport({ store, config, rendered, budgetMs: 5_000, sleep: async (ms) => void waits.push(ms) });
    expect(result.status).toBe('failed');
    expect(result.attempts).toBe(1);
    expect(waits).toEqual([]);
    expect(result.error).toMatch(/421.*no retry: the next would end after the 5 s budget/);
  });
});
