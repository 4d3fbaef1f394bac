// Nothing left behind (issue 18 §6): spool folders, DuckDB spill folders and publish files carry their owner's pid and
// start time, and the next run removes those of dead owners – never a live run's, and a reused pid is told apart.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSpool } from '../../src/extract/spool.ts';
import { processStartOf } from '../../src/store/lock.ts';
import { readerTempDirectory } from '../../src/store/reader-temp.ts';
import { ownerTag, sweepDead } from '../../src/store/run-owner.ts';
import { withWriter } from '../../src/store/shared-database.ts';
import { tempDir } from '../helpers/temp-dir.ts';

/** A pid that was a process a moment ago and is gone now. */
function deadPid(): number {
  return Number(spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' }).stdout.trim());
}

describe('files of dead runs', () => {
  let dir: string;
  let savedTmp: string | undefined;
  let live: ReturnType<typeof spawn>;

  beforeEach(() => {
    dir = tempDir('gpuledger-owner-').dir;
    savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = dir; // os.tmpdir() reads it on every call: the spool and spill folders land here
    live = spawn('sleep', ['60'], { stdio: 'ignore' });
  });
  afterEach(() => {
    live.kill();
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
    rmSync(dir, { recursive: true, force: true });
  });

  const liveTag = () => `${live.pid}-${processStartOf(live.pid!)}`;

  it('removes the entries of dead owners and of reused pids, and keeps those of live ones and of this process', () => {
    const names = {
      dead: `x-${deadPid()}-12345-a`,
      reused: `x-${live.pid}-1-b`, // the pid is alive, but started at another time: someone else's now
      live: `x-${liveTag()}-c`,
      mine: `x-${ownerTag()}-d`,
      other: 'x-notatag',
    };
    for (const n of Object.values(names)) mkdirSync(join(dir, n));
    const removed = sweepDead(dir, /^x-(?<pid>\d+)-(?<start>\d+)-/);
    expect(removed.sort()).toEqual([names.dead, names.reused].sort());
    expect(readdirSync(dir).sort()).toEqual([names.live, names.mine, names.other].sort());
  });

  it('a new sync spool removes the spool folders of killed syncs and leaves a running sync’s alone', () => {
    const dead = join(dir, `gpuledger-spool-${deadPid()}-777-AbCdEf`);
    const running = join(dir, `gpuledger-spool-${liveTag()}-GhIjKl`);
    for (const d of [dead, running]) {
      mkdirSync(d);
      writeFileSync(join(d, 'page-000001.json'), '[]');
    }
    const spool = createSpool();
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(running)).toBe(true);
    const mine = readdirSync(dir).filter((n) => n.startsWith(`gpuledger-spool-${ownerTag()}-`));
    expect(mine).toHaveLength(1);
    spool.remove();
    expect(readdirSync(dir).filter((n) => n.startsWith('gpuledger-spool-'))).toEqual([running.slice(dir.length + 1)]);
  });

  it('a reader removes the spill folders of killed readers', () => {
    const dead = join(dir, `gpuledger-duckdb-${deadPid()}-5-0a0b0c0d`);
    mkdirSync(dead);
    const next = readerTempDirectory();
    expect(existsSync(dead)).toBe(false);
    expect(next.startsWith(join(dir, `gpuledger-duckdb-${ownerTag()}-`))).toBe(true);
    expect(existsSync(next)).toBe(false); // DuckDB makes it when it first spills
  });

  it('the next writer removes the publish files of a killed publish, and not those of a live one', async () => {
    const db = join(dir, 'ledger.duckdb');
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, async () => undefined);
    const stale = [`${db}.publish-${deadPid()}-42.tmp`, `${db}.publish-${deadPid()}-42.previous.tmp`, `${db}.publish-${deadPid()}.tmp`];
    const running = `${db}.publish-${liveTag()}.tmp`;
    for (const f of [...stale, running]) writeFileSync(f, 'partial copy');
    await withWriter({ dbPath: db, command: 'test', applyViews: false }, async () => undefined);
    for (const f of stale) expect(existsSync(f)).toBe(false);
    expect(existsSync(running)).toBe(true);
  });
});
