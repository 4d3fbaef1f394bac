import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config/schema.ts';
import { deliverReport } from '../../../src/report/delivery/deliver.ts';
import { renderReport, type RenderedReport } from '../../../src/report/render.ts';
import { writeHtmlReport } from '../../../src/report/html/index.ts';
import { withReportSession } from '../../../src/report/report-session.ts';
import type { Store } from '../../../src/store/database.ts';
import { createLogger, type Logger } from '../../../src/util/log.ts';
import { FIXTURE_REPORT, fixtureStore, testConfig, writeDefinition } from '../../helpers/report-fixtures.ts';
import { flatten, parseMime, startSmtp, type TestSmtp } from '../../helpers/smtp.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

const PASSWORD = 'smtp-pw-7f3a9c1e-do-not-leak';
const ENV = { GPULEDGER_SMTP_PASSWORD: PASSWORD };

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger({ level: 'debug', stream: { write: (s: string) => (lines.push(s), true) } as unknown as NodeJS.WritableStream });
  return { logger, lines };
}

describe('deliverReport over a real SMTP server', () => {
  let dir: string;
  let store: Store;
  let rendered: RenderedReport;
  const servers: TestSmtp[] = [];

  const configFor = (smtp: TestSmtp, email: Record<string, number> = {}): Config =>
    testConfig({
      reports: { directory: dir, delivery: { fixture: { recipients: ['finance@example.com', 'ops@example.com'] } }, email: { retryDelaySeconds: 0, ...email } },
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, user: 'gpuledger', from: 'gpuledger <finops@example.com>', timeoutSeconds: 10 },
    });
  const server = async (o: Parameters<typeof startSmtp>[0] = {}) => {
    const s = await startSmtp({ user: 'gpuledger', password: PASSWORD, ...o });
    servers.push(s);
    return s;
  };
  const deliveryRows = () => store.all('select * from _meta_report_deliveries order by created_at');

  beforeAll(async () => {
    dir = tempDir('gpuledger-report-').dir;
    store = await fixtureStore(dir);
    writeDefinition(dir, 'fixture', FIXTURE_REPORT);
    rendered = await renderReport({ store, config: testConfig({ reports: { directory: dir } }), report: 'fixture', period: '2026-10', outDir: join(dir, 'out') });
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await store?.close();
  });

  it('sends the workbook byte-identical, the figures in HTML and text, the chart inline, and records it', async () => {
    const smtp = await server();
    const { logger, lines } = capture();
    const result = await deliverReport({ store, config: configFor(smtp), rendered, env: ENV, logger });
    expect(result).toMatchObject({ status: 'sent', attempts: 1, attachment: 'xlsx', recipients: ['finance@example.com', 'ops@example.com'] });
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['finance@example.com', 'ops@example.com']);
    expect(smtp.passwords).toEqual([PASSWORD]);

    const parts = flatten(parseMime(smtp.received[0]!.raw));
    const xlsx = parts.find((p) => p.contentType === 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx?.headers['content-disposition']).toContain('gpuledger-fixture-2026-10.xlsx');
    expect(xlsx!.body.equals(readFileSync(rendered.path))).toBe(true);

    const total = rendered.summary.figures.find((f) => f.label === 'Total spend')!;
    expect(total.text).toBe('$4,477.48'); // sum of the fixture rows, from the DECIMAL string
    const html = parts.find((p) => p.contentType === 'text/html')!.body.toString('utf8');
    const text = parts.find((p) => p.contentType === 'text/plain')!.body.toString('utf8');
    expect(html).toContain('$4,477.48');
    expect(html).toContain('cid:cumulative@gpuledger');
    expect(text).toContain('Total spend: $4,477.48');
    const image = parts.find((p) => p.contentType === 'image/png')!;
    expect(image.headers['content-id']).toBe('<cumulative@gpuledger>');
    expect(image.body.subarray(1, 4).toString()).toBe('PNG');

    const rows = await deliveryRows();
    expect(rows.at(-1)).toMatchObject({ report: 'fixture', period: '2026-10', status: 'sent', attempts: 1, attachment: 'xlsx', path: rendered.path });
    expect(JSON.stringify(rows) + lines.join('')).not.toContain(PASSWORD);
  });

  it('records a refused recipient list as failed after one attempt and keeps the workbook', async () => {
    const smtp = await server({ rejectRecipients: ['finance@example.com', 'ops@example.com'] });
    const { logger, lines } = capture();
    const result = await deliverReport({ store, config: configFor(smtp), rendered, env: ENV, logger });
    expect(result.status).toBe('failed');
    expect(result.attempts).toBe(1); // 550 is permanent: no retry
    expect(result.error).toMatch(/550|unavailable/);
    expect(existsSync(rendered.path)).toBe(true);
    const row = await store.one<{ status: string; attempts: number; last_error: string }>(
      'select status, attempts, last_error from _meta_report_deliveries where delivery_id = $1',
      [result.deliveryId],
    );
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.last_error).toMatch(/550|unavailable/);
    expect(lines.join('')).toMatch(/not delivered .* the workbook stays at /);
  });

  it('reports a recipient the server refused while accepting the others as partial', async () => {
    const smtp = await server({ rejectRecipients: ['ops@example.com'] });
    const result = await deliverReport({ store, config: configFor(smtp), rendered, env: ENV });
    expect(result.status).toBe('partial');
    expect(result.rejected).toEqual(['ops@example.com']);
    expect(smtp.received[0]!.to).toEqual(['finance@example.com']);
  });

  it('fails on a wrong password without the password in the error, log or database', async () => {
    const smtp = await server({ password: 'the-right-one-123' });
    const { logger, lines } = capture();
    const result = await deliverReport({ store, config: configFor(smtp), rendered, env: ENV, logger });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/535|credentials/i);
    expect(smtp.received).toHaveLength(0);
    expect(JSON.stringify(await deliveryRows()) + lines.join('') + JSON.stringify(result)).not.toContain(PASSWORD);
  });

  it('retries a transient refusal (421) with backoff and then delivers', async () => {
    const smtp = await server({ failDataTimes: 2 });
    const waits: number[] = [];
    const result = await deliverReport({
      store,
      config: configFor(smtp, { attempts: 4, retryDelaySeconds: 5, maxRetryDelaySeconds: 7 }),
      rendered,
      env: ENV,
      sleep: async (ms) => void waits.push(ms),
    });
    expect(result).toMatchObject({ status: 'sent', attempts: 3 });
    expect(waits).toEqual([5000, 7000]); // doubling, capped
    expect(smtp.received).toHaveLength(1);
  });

  it('gives up after the configured attempts on a server that keeps refusing for now', async () => {
    const smtp = await server({ failDataTimes: 10 });
    const result = await deliverReport({ store, config: configFor(smtp, { attempts: 2 }), rendered, env: ENV, sleep: async () => {} });
    expect(result).toMatchObject({ status: 'failed', attempts: 2 });
    expect(result.error).toMatch(/421/);
  });

  it('does not attach a workbook above attachUpToMb and states its path instead', async () => {
    const smtp = await server();
    const result = await deliverReport({ store, config: configFor(smtp, { attachUpToMb: 0.001 }), rendered, env: ENV });
    expect(result.attachment).toBe('none');
    const parts = flatten(parseMime(smtp.received[0]!.raw));
    expect(parts.some((p) => p.contentType.includes('spreadsheet') || p.contentType === 'application/zip')).toBe(false);
    const text = parts.find((p) => p.contentType === 'text/plain')!.body.toString('utf8');
    expect(text).toContain(`too large to attach`);
    expect(text).toContain(rendered.path);
  });

  it('attaches the HTML page beside the workbook with reports.attachHtml, and otherwise names where it is', async () => {
    const page = await withReportSession({ store, config: testConfig({ reports: { directory: dir } }), report: 'fixture', period: '2026-10', outDir: join(dir, 'out') }, (s) => writeHtmlReport(s));
    const attached = await server();
    const config = configFor(attached);
    await deliverReport({ store, config: { ...config, reports: { ...config.reports, attachHtml: true } }, rendered, html: page, env: ENV });
    const parts = flatten(parseMime(attached.received[0]!.raw));
    const html = parts.find((p) => (p.headers['content-disposition'] ?? '').includes('gpuledger-fixture-2026-10.html'))!;
    expect(html.contentType).toBe('text/html');
    expect(html.body.equals(readFileSync(page.path))).toBe(true);
    expect(parts.find((p) => p.contentType === 'text/plain')!.body.toString('utf8')).toContain('gpuledger-fixture-2026-10.html, is attached');

    const named = await server();
    await deliverReport({ store, config: configFor(named), rendered, html: page, env: ENV });
    const plain = flatten(parseMime(named.received[0]!.raw));
    expect(plain.some((p) => (p.headers['content-disposition'] ?? '').includes('.html'))).toBe(false);
    expect(plain.find((p) => p.contentType === 'text/plain')!.body.toString('utf8')).toContain(`The same report as one web page is at ${page.path}`);
  });

  it('refuses to start without recipients or without an smtp section (configuration errors)', async () => {
    const smtp = await server();
    const config = configFor(smtp);
    await expect(deliverReport({ store, config, rendered, env: ENV, recipients: [] })).rejects.toThrow(/no recipients for report 'fixture'/);
    await expect(deliverReport({ store, config: { ...config, smtp: undefined }, rendered, env: ENV })).rejects.toThrow(/smtp is not configured/);
    await expect(deliverReport({ store, config, rendered, env: {} })).rejects.toThrow(/GPULEDGER_SMTP_PASSWORD/);
  });
});
