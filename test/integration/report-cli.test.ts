import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { FIXTURE_REPORT, fixtureStore, writeDefinition } from '../helpers/report-fixtures.ts';
import { startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const PASSWORD = 'cli-smtp-pw-51f0c2aa-secret';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process (async: the SMTP server in this process must keep answering). */
function gpuledger(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, GPULEDGER_LOG_LEVEL: 'info', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('gpuledger report (the command)', () => {
  let dir: string;
  let db: string;
  let good: TestSmtp;
  let refusing: TestSmtp;
  const config = (smtp: TestSmtp, name: string) => {
    mkdirSync(join(dir, 'config'), { recursive: true });
    const file = join(dir, 'config', `${name}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        outDir: join(dir, 'out'),
        reports: { directory: dir, delivery: { fixture: { recipients: ['finance@example.com'] } }, email: { attempts: 2, retryDelaySeconds: 0 } },
        smtp: { host: '127.0.0.1', port: smtp.port, user: 'gpuledger', from: 'gpuledger <finops@example.com>', timeoutSeconds: 10 },
      }),
    );
    return file;
  };

  beforeAll(async () => {
    dir = tempDir('gpuledger-report-').dir;
    const store = await fixtureStore(dir);
    db = store.path;
    await store.close();
    writeDefinition(dir, 'fixture', FIXTURE_REPORT);
    good = await startSmtp({ user: 'gpuledger', password: PASSWORD });
    refusing = await startSmtp({ user: 'gpuledger', password: PASSWORD, rejectRecipients: ['finance@example.com'] });
  });
  afterAll(async () => {
    await good?.close();
    await refusing?.close();
  });

  it('refuses a bad --period with one line saying what is accepted (exit 2)', async () => {
    const r = await gpuledger(['--db', db, '--config', config(good, 'c1'), 'report', '--report', 'fixture', '--period', '2026/10']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      "gpuledger: --period takes a month such as 2026-10 or a day range such as 2026-10-01..2026-10-15 (inclusive days), got '2026/10'",
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('names the reports there are when asked for one that is not (exit 2)', async () => {
    const r = await gpuledger(['--db', db, '--config', config(good, 'c2'), 'report', '--report', 'weekly']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gpuledger: no report named 'weekly'; available: finance-monthly, fixture, nightly/);
  });

  it('refuses --email without the SMTP password before rendering anything (exit 2)', async () => {
    const out = join(dir, 'no-password');
    const r = await gpuledger(['--db', db, '--config', config(good, 'c6'), 'report', '--report', 'fixture', '--period', '2026-10', '--email', '--out-dir', out], {
      GPULEDGER_SMTP_PASSWORD: '',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gpuledger: smtp\.user is set but the environment variable GPULEDGER_SMTP_PASSWORD \(smtp\.passwordEnv\) is empty/);
    expect(existsSync(out)).toBe(false);
  });

  it('writes the workbook and prints its path', async () => {
    const r = await gpuledger(['--db', db, '--config', config(good, 'c3'), 'report', '--report', 'fixture', '--period', '2026-10', '--out-dir', join(dir, 'cli-out')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${join(dir, 'cli-out', 'gpuledger-fixture-2026-10.xlsx')}\n`);
    expect(readdirSync(join(dir, 'cli-out'))).toEqual(['gpuledger-fixture-2026-10.xlsx']);
  });

  it('emails it with --email', async () => {
    const r = await gpuledger(['--db', db, '--config', config(good, 'c4'), 'report', '--report', 'fixture', '--period', '2026-10', '--email'], {
      GPULEDGER_SMTP_PASSWORD: PASSWORD,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(good.received).toHaveLength(1);
    expect(r.stderr).toContain('sent to finance@example.com');
  });

  it('exits 1 when the server refuses, keeps the workbook, records the failure and never shows the password', async () => {
    const r = await gpuledger(['--db', db, '--config', config(refusing, 'c5'), 'report', '--report', 'fixture', '--period', '2026-10', '--email'], {
      GPULEDGER_SMTP_PASSWORD: PASSWORD,
    });
    expect(r.code).toBe(1);
    const path = join(dir, 'out', 'gpuledger-fixture-2026-10.xlsx');
    expect(r.stdout).toBe(`${path}\n`);
    expect(existsSync(path)).toBe(true);
    expect(r.stderr).toMatch(/gpuledger: email of fixture 2026-10 failed after 1 attempt: .*550.*; the workbook stays at .*gpuledger-fixture-2026-10\.xlsx \(recorded in _meta_report_deliveries/);
    expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    const store = await openStore({ path: db, readOnly: true });
    try {
      const rows = await store.all('select * from _meta_report_deliveries order by created_at');
      expect(rows.map((x) => x.status)).toEqual(['sent', 'failed']);
      expect(JSON.stringify(rows)).not.toContain(PASSWORD);
    } finally {
      await store.close();
    }
  });
});
