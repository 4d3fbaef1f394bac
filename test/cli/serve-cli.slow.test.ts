// `gpuledger serve` on the command line: the start line says where and how it is guarded, SIGTERM ends it with exit
// 0, and a bad flag or a non-loopback address without a token is one line and exit 2. Before there is a database it
// answers a page saying what to run, and serves the database once it appears.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';

import { gpuledger } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

describe('gpuledger serve on the command line', () => {
  it('refuses a bad port, a bad SQL time limit and an open address without a token, in one line, exit 2', async () => {
    const port = await gpuledger(['serve', '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr.trim()).toMatch(/^gpuledger: --port must be an integer from 0 to 65535, got 'eighty'$/);
    const limit = await gpuledger(['serve', '--port', '0', '--sql-time-limit', '0']);
    expect(limit.code).toBe(2);
    expect(limit.stderr.trim()).toBe("gpuledger: --sql-time-limit must be a number of seconds above 0 and at most 3600, got '0'");
    const open = await gpuledger(['serve', '--host', '0.0.0.0', '--port', '0'], { GPULEDGER_SERVE_TOKEN: '' });
    expect(open.code).toBe(2);
    expect(open.stderr.trim().split('\n')).toHaveLength(1);
    expect(open.stderr).toMatch(/needs a token: set GPULEDGER_SERVE_TOKEN/);
  });

  it('says where it listens and that it is loopback only, answers, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/gpuledger.js', 'serve', '--port', '0', '--db', '/nonexistent/gpuledger.duckdb'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const m = /^gpuledger serve on (http:\/\/127\.0\.0\.1:\d+)\/report\/nightly \(loopback only; read-only; Ctrl-C stops\)\n$/.exec(line.toString());
      expect(m, line.toString()).not.toBeNull();
      // no database yet: a page says what to run (503: not ready yet) and looks again by itself; the server stays up
      const r = await fetch(`${m![1]}/views`);
      expect(r.status).toBe(503);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('retry-after')).toBe('10');
      expect(r.headers.get('refresh')).toBe('10');
      const page = await r.text();
      expect(page).toMatch(/database .* does not exist yet; run gpuledger sync first/);
      expect(page).toContain('<code>npm start</code>');
      expect(page).toContain('<code>gpuledger sync --db /nonexistent/gpuledger.duckdb</code>');
      const csv = await fetch(`${m![1]}/view/rpt_runway.csv`);
      expect(csv.status).toBe(503);
      expect(await csv.text()).toMatch(/^database .* does not exist yet; run gpuledger sync first \(it needs an API key\), gpuledger run --demo for simulated data, or pass --db FILE\n$/);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('says a token is required, not "loopback only", when GPULEDGER_SERVE_TOKEN is set on loopback – and requires it', async () => {
    const token = 'a'.repeat(20) + 'B7x9q2LmP0zR';
    const child = spawn(process.execPath, ['bin/gpuledger.js', 'serve', '--port', '0', '--db', '/nonexistent/gpuledger.duckdb'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, GPULEDGER_CONFIG: '', GPULEDGER_SERVE_TOKEN: token },
    });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const m = /^gpuledger serve on (http:\/\/127\.0\.0\.1:\d+)\/report\/nightly \(token required on 127\.0\.0\.1: every request sends the token in GPULEDGER_SERVE_TOKEN; read-only; Ctrl-C stops\)\n$/.exec(line.toString());
      expect(m, line.toString()).not.toBeNull();
      expect(line.toString()).not.toContain(token);
      // what the line says is what is in force: without the token a page is refused
      expect((await fetch(`${m![1]}/views`)).status).toBe(401);
      expect((await fetch(`${m![1]}/views`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(503);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('serves the database once it appears, without a restart', async () => {
    const tmp = tempDir('gpuledger-serve-cli-');
    const db = join(tmp.dir, 'data', 'gpuledger.duckdb');
    const child = spawn(process.execPath, ['bin/gpuledger.js', 'serve', '--port', '0', '--db', db], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GPULEDGER_CONFIG: '', GPULEDGER_SERVE_TOKEN: '' } });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const base = /on (http:\/\/[^/]+)\//.exec(line.toString())![1]!;
      expect((await fetch(`${base}/views`)).status).toBe(503);
      expect(stderr).toMatch(/no database at .*gpuledger\.duckdb yet: run npm start \(the demo\) or gpuledger sync/);
      await (await openStore({ path: db, command: 'test' })).close();
      const r = await fetch(`${base}/views`);
      expect(r.status).toBe(200);
      expect(await r.text()).toContain('rpt_runway');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      tmp.cleanup();
    }
  });
});
