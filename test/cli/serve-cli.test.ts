// `gpuledger serve` on the command line: the start line says where and how it is guarded, SIGTERM ends it with exit
// 0, and a bad flag or a non-loopback address without a token is one line and exit 2.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { gpuledger } from '../query/cli.ts';

describe('gpuledger serve on the command line', () => {
  it('refuses a bad port and an open address without a token, in one line, exit 2', async () => {
    const port = await gpuledger(['serve', '--port', 'eighty']);
    expect(port.code).toBe(2);
    expect(port.stderr.trim()).toMatch(/^gpuledger: --port must be an integer from 0 to 65535, got 'eighty'$/);
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
      // no database yet: the page says so (400, one line), the server stays up
      const r = await fetch(`${m![1]}/views`);
      expect(r.status).toBe(400);
      expect(await r.text()).toMatch(/database .* does not exist yet; run gpuledger sync first/);
      child.kill('SIGTERM');
      const [code] = (await once(child, 'exit')) as [number];
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
