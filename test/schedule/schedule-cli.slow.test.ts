// `gpuledger schedule` as a real process: --list prints the next runs in the configured zone; the daemon catches up a
// missed job by running it as a child `gpuledger` process, logs its outcome, refuses a second daemon for the same
// database, and stops cleanly on SIGTERM.
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { saveState, statePathFor } from '../../src/schedule/state.ts';
import { openStore } from '../../src/store/database.ts';
import { gpuledger } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));

describe('gpuledger schedule', () => {
  const dir = tempDir('gpuledger-schedule-cli-').dir;
  const db = join(dir, 'ledger.duckdb');
  const config = join(dir, 'gpuledger.config.json');
  writeFileSync(
    config,
    JSON.stringify({
      timeZone: 'Europe/Berlin',
      outDir: join(dir, 'out'),
      schedule: { jobs: [{ name: 'nightly-alerts', cron: '0 6 * * *', command: 'alerts', args: ['--dry-run'] }] },
    }),
  );
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--list prints each job with its next run in the configured time zone', async () => {
    const r = await gpuledger(['--config', config, '--db', db, 'schedule', '--list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^nightly-alerts +alerts +next \d{4}-\d{2}-\d{2} 06:00 \+0[12]:00 \(Europe\/Berlin\)$/m);
  });

  it('refuses a bad cron expression with one line and exit 2', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ schedule: { jobs: [{ name: 'x', cron: '0 6 * *', command: 'sync' }] } }));
    const r = await gpuledger(['--config', bad, '--db', db, 'schedule', '--list']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/schedule\.jobs\.1\.cron: '0 6 \* \*' has 4 fields; use 5 fields/);
  });

  it('catches up a missed run in a child process, refuses a second daemon, and stops on SIGTERM', async () => {
    await (await openStore({ path: db, command: 'test' })).close();
    saveState(statePathFor(db), { version: 1, jobs: { 'nightly-alerts': { lastScheduledFor: '2026-01-01T05:00:00.000Z' } } });
    const daemon = spawn(process.execPath, [BIN, '--config', config, '--db', db, 'schedule'], {
      env: { ...process.env, GPULEDGER_CONFIG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    daemon.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    daemon.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => daemon.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 60_000;
      while (!/job nightly-alerts succeeded/.test(stderr) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(stderr).toMatch(/job nightly-alerts: the run due at .* was missed; catching up now/);
      expect(stderr).toMatch(/job nightly-alerts \(alerts --dry-run\) started to catch up/);
      expect(stderr).toMatch(/job nightly-alerts succeeded in \d+ s/);
      // the child's own output: a dry run of the alerts on an empty database
      expect(stdout).toContain('would send: nothing');

      const second = await gpuledger(['--config', config, '--db', db, 'schedule']);
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(/a gpuledger schedule daemon \(pid \d+, since .*\) already runs the jobs for .*ledger\.duckdb; stop it first/);

      // between jobs the daemon holds no database: a query runs
      const q = await gpuledger(['--db', db, 'query', 'select 1 as one', '--format', 'csv']);
      expect(q.code).toBe(0);
    } finally {
      daemon.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toMatch(/scheduler stopped/);
  }, 90_000);
});
