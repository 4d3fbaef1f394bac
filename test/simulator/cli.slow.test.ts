// `gpuledger simulator`: flags become options or a UsageError naming the flag; the command serves until SIGTERM.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { simulatorOptionsFromFlags } from '../../src/cli/commands/simulator.ts';
import { UsageError } from '../../src/util/errors.ts';

const defaults = { host: '127.0.0.1', port: '8787', seed: '42', scale: 'small', key: [], restrictedKey: [] };

describe('gpuledger simulator', () => {
  it('turns flags into simulator options', () => {
    const options = simulatorOptionsFromFlags({
      ...defaults, port: '0', seed: '7', scale: 'medium', now: '2026-11-20T12:00:00Z', anchor: '2026-11-18T08:00:00Z', key: ['a', 'b'],
      faults: '5xx=0.1,latency=200ms', quotaMinute: '5', sparse: true,
    });
    expect(options).toMatchObject({ port: 0, seed: 7, scale: 'medium', keys: ['a', 'b'], restrictedKeys: ['sim-restricted-key'], quotas: { minute: 5 }, sparse: true });
    expect(options.now).toEqual(new Date('2026-11-20T12:00:00Z'));
    expect(options.anchor).toEqual(new Date('2026-11-18T08:00:00Z'));
    expect(simulatorOptionsFromFlags(defaults).anchor).toBeUndefined();
    expect(options.faults).toEqual({ serverError: 0.1, latencyMs: 200 });
    expect(options.accounts).toBeUndefined();
    expect(simulatorOptionsFromFlags({ ...defaults, account: ['team-a=7', 'team-b=8'] }).accounts).toEqual([{ key: 'team-a', seed: 7 }, { key: 'team-b', seed: 8 }]);
    expect(simulatorOptionsFromFlags({ ...defaults, account: ['invoiced=9:postpaid', 'team-b=8:prepaid'] }).accounts).toEqual([{ key: 'invoiced', seed: 9, postpaid: true }, { key: 'team-b', seed: 8 }]);
    expect(simulatorOptionsFromFlags({ ...defaults, postpaid: true }).postpaid).toBe(true);
    expect(options.postpaid).toBeUndefined();
  });

  it.each([
    [{ port: '70000' }, '--port'],
    [{ seed: 'x' }, '--seed'],
    [{ scale: 'huge' }, '--scale must be small, medium or large'],
    [{ now: '2026-11-20' }, '--now'],
    [{ anchor: 'yesterday' }, '--anchor'],
    [{ faults: 'explode=1' }, '--faults: unknown fault'],
    [{ quotaMinute: '0' }, '--quota-minute'],
    [{ account: ['team-a-key'] }, '--account must be KEY=SEED'],
    [{ account: ['team a=1'] }, '--account must be KEY=SEED'],
    [{ account: ['k=99999999999'] }, '--account seed'],
    [{ account: ['k=9:invoiced'] }, '--account must be KEY=SEED or KEY=SEED:postpaid'],
  ])('rejects %j with a UsageError naming the flag', (flags, message) => {
    expect(() => simulatorOptionsFromFlags({ ...defaults, ...flags })).toThrow(UsageError);
    expect(() => simulatorOptionsFromFlags({ ...defaults, ...flags })).toThrow(message);
  });

  it('prints where it listens, serves, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['bin/gpuledger.js', 'simulator', '--port', '0', '--now', '2026-11-20T12:00:00Z'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const m = /^simulator listening on (http:\/\/127\.0\.0\.1:\d+) \(scale small, seed 42, keys: sim-demo-key\)\n$/.exec(line.toString());
      expect(m).not.toBeNull();
      const res = await fetch(`${m![1]}/v2/billing/pods?bucketSize=day&lastN=3`, { headers: { Authorization: 'Bearer sim-demo-key' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { metadata: { query: unknown } }).metadata.query).toMatchObject({ startTime: '2026-11-18T00:00:00Z', endTime: '2026-11-21T00:00:00Z' });
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
  });

  it('says that a custom --key is set and never prints it, yet accepts it', async () => {
    const key = 'sk-live-simulator-start-line-0123456789';
    const child = spawn(process.execPath, ['bin/gpuledger.js', 'simulator', '--port', '0', '--key', key, '--now', '2026-11-20T12:00:00Z'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const m = /^simulator listening on (http:\/\/127\.0\.0\.1:\d+) \(scale small, seed 42, keys: 1 set with --key, not shown\)\n$/.exec(line.toString());
      expect(m).not.toBeNull();
      const res = await fetch(`${m![1]}/v2/billing/pods?bucketSize=day&lastN=1`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(line.toString() + stderr).not.toContain('sk-live');
    } finally {
      child.kill('SIGTERM');
    }
    await once(child, 'exit');
    expect(stderr).not.toContain('sk-live');
  });
});
