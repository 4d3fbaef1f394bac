// Kill points (issue 18 "Done when"): a sync, and a publish, killed with SIGKILL at many random moments and then run
// again, end with the same money to the micro-dollar as an uninterrupted sync, a database every copy of which is
// good, and nothing left behind – no spool folder in the temp folder, no publish file beside the database. The
// moments come from a seeded generator; the seed is printed, and GPULEDGER_KILL_SEED=N repeats a run.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.ts';
import { checkCopy } from '../../src/store/copy-check.ts';
import { openStore } from '../../src/store/database.ts';
import { withWriter } from '../../src/store/shared-database.ts';
import { BILLING_SOURCE_DEFS } from '../../src/model/index.ts';
import { gpuledger } from '../helpers/cli.ts';
import { expectMatchesLedger, fastSimulator, KEY, smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';
import { createRng } from '../../src/simulator/prng.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const PUBLISH_LOOP = fileURLToPath(new URL('../helpers/publish-loop.ts', import.meta.url));
const SOURCES = ['aggregate', 'pods', 'serverless'] as const;

const seed = Number(process.env.GPULEDGER_KILL_SEED ?? Math.floor(Math.random() * 2 ** 31));
console.log(`kill-point seed ${seed} (GPULEDGER_KILL_SEED=${seed} repeats these moments)`);
const rng = createRng(seed); // seeded, so a failing sequence of moments can be replayed

/**
 * Start a child and kill it with SIGKILL once `when` holds – a moment in ms, or a test on the files it makes, polled
 * as fast as the loop turns – counted from when it printed `ready` (if given), then wait until it is gone. True when
 * it was killed (not already finished).
 */
async function killAt(args: string[], env: NodeJS.ProcessEnv, when: number | (() => boolean), ready?: string): Promise<boolean> {
  const child = spawn(process.execPath, args, { env: { ...process.env, GPULEDGER_CONFIG: '', ...env }, stdio: ['ignore', 'pipe', 'ignore'] });
  let done = false;
  const exited = new Promise<boolean>((resolve) => child.on('exit', (_code, signal) => ((done = true), resolve(signal === 'SIGKILL'))));
  if (ready) {
    let out = '';
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => ((out += d.toString()), out.includes(ready) && resolve()));
      child.on('exit', () => resolve());
    });
  }
  child.stdout.resume();
  if (typeof when === 'number') await new Promise((r) => setTimeout(r, when));
  else while (!done && !when()) await new Promise((r) => setImmediate(r));
  child.kill('SIGKILL');
  return exited;
}

/** Per raw billing table and bucket size: rows and the exact sum of total_amount. */
async function totals(db: string): Promise<string[]> {
  const s = await openStore({ path: db, readOnly: true });
  try {
    const out: string[] = [];
    for (const source of SOURCES) {
      const { table } = BILLING_SOURCE_DEFS[source];
      const rows = await s.all<{ b: string; n: string; total: string }>(`select bucket_size b, count(*)::varchar n, sum(total_amount)::varchar total from ${table} group by all order by all`);
      out.push(...rows.map((r) => `${source} ${r.b}: ${r.n} rows, ${r.total}`));
    }
    return out;
  } finally {
    await s.close();
  }
}

const leftovers = (dir: string, pattern: RegExp) => readdirSync(dir).filter((n) => pattern.test(n));

describe('killed at random moments', () => {
  let sim: Simulator;
  let tmp: TempDir;
  let config: string;
  let seedDb: string;
  let reference: string[];
  let syncMs: number;
  let spoolDir: string;
  const env = () => ({ GPULEDGER_TEST_KEY: KEY, TMPDIR: spoolDir });
  const syncArgs = (db: string) => [BIN, '--config', config, '--db', db, 'sync', '--source', SOURCES.join(',')];
  /** A fresh folder holding a copy of the migrated, empty database (making one takes seconds of fsyncs). */
  const fromSeed = (name: string) => {
    mkdirSync(join(tmp.dir, name));
    const db = join(tmp.dir, name, 'ledger.duckdb');
    for (const suffix of ['', '.writer']) copyFileSync(seedDb + suffix, db + suffix);
    return db;
  };

  beforeAll(async () => {
    sim = await fastSimulator();
    tmp = tempDir('gpuledger-kill-');
    spoolDir = join(tmp.dir, 'tmp');
    mkdirSync(spoolDir);
    config = writeConfig(tmp.dir, smallSyncConfig(sim));
    seedDb = join(tmp.dir, 'seed', 'ledger.duckdb');
    await withWriter({ dbPath: seedDb, command: 'test' }, async () => undefined);
    const db = fromSeed('reference');
    const started = Date.now();
    const r = await gpuledger(syncArgs(db).slice(1), env());
    syncMs = Date.now() - started;
    expect(r.code).toBe(0);
    reference = await totals(db);
    expect(reference.length).toBeGreaterThan(3);
  }, 60_000);
  afterAll(async () => {
    await sim?.close();
    tmp?.cleanup();
  });

  it('a sync killed mid-fetch, mid-write, mid-publish and at random moments, then run once more, has the uninterrupted totals and leaves nothing behind', async () => {
    const db = fromSeed('killed');
    const dir = join(db, '..');
    const spools = () => leftovers(spoolDir, /^gpuledger-spool-/);
    const kills: [string, number | (() => boolean)][] = [
      ['mid-fetch (a spool folder holds a page)', () => spools().some((d) => leftovers(join(spoolDir, d), /^page-/).length > 0)],
      ['mid-write (the writer copy has a WAL)', () => existsSync(`${db}.writer.wal`)],
      ['mid-publish (a publish file exists)', () => leftovers(dir, /\.publish-/).length > 0],
      ...Array.from({ length: 4 }, (_, i): [string, number] => [`random ${i + 1}`, Math.round(100 + rng.next() * syncMs)]),
    ];
    const seen: string[] = [];
    for (const [what, when] of kills) {
      const killed = await killAt(syncArgs(db), env(), when);
      seen.push(`${what}: ${killed ? 'killed' : 'had finished'}${spools().length ? ', left a spool folder' : ''}${leftovers(dir, /\.publish-/).length ? ', left a publish file' : ''}`);
      // the mid-fetch kill leaves the killed run's spool behind: what the next run must clean up
      if (what.startsWith('mid-fetch') && killed) expect(spools()).not.toEqual([]);
    }
    console.log(`sync (uninterrupted: ${syncMs} ms) killed:\n  ${seen.join('\n  ')}`);
    const r = await gpuledger(syncArgs(db).slice(1), env());
    expect(r.stderr.split('\n').filter((l) => / (warn|error) /.test(l) && !/ended without finishing/.test(l))).toEqual([]);
    expect(r.code).toBe(0);
    expect(await totals(db)).toEqual(reference);
    const store = await openStore({ path: db, readOnly: true });
    try {
      await expectMatchesLedger(store, sim, SOURCES, expect);
    } finally {
      await store.close();
    }
    for (const copy of [db, `${db}.writer`]) expect((await checkCopy(copy)).state).toBe('good');
    expect(leftovers(spoolDir, /^gpuledger-(spool|duckdb)-/)).toEqual([]);
    expect(leftovers(dir, /\.publish-|\.aside-/)).toEqual([]);
    // five syncs of a CLI each, ~16 s alone; four times that on a machine busy with the rest of the suite
  }, 180_000);

  it('a publish killed at any moment loses no committed session, keeps every copy good, and leaves no publish file', async () => {
    // a database of real size: the reference sync's, so a publish copies megabytes, not a few blocks
    const db = join(tmp.dir, 'publishing', 'ledger.duckdb');
    mkdirSync(join(db, '..'));
    copyFileSync(join(tmp.dir, 'reference', 'ledger.duckdb'), db);
    const dir = join(db, '..');
    const count = async (path: string) => {
      const s = await openStore({ path, readOnly: true });
      try {
        return Number((await s.one<{ n: number }>(`select count(*)::integer n from _meta_runs`))!.n);
      } finally {
        await s.close();
      }
    };
    let published = await count(db);
    const seen: string[] = [];
    let midPublish = 0;
    for (let i = 0; i < 8; i++) {
      // every other kill as soon as a publish file appears, the others at a random moment of the sessions that follow
      const targeted = i % 2 === 0;
      const when = targeted ? () => leftovers(dir, /\.publish-/).length > 0 : Math.round(rng.next() * 600);
      await killAt(['--import', 'tsx', PUBLISH_LOOP, db], { TMPDIR: spoolDir }, when, 'publishing');
      const left = leftovers(dir, /\.publish-/);
      if (left.length > 0) midPublish++;
      seen.push(`${targeted ? 'at a publish file' : 'random'}: ${left.length} publish file(s) left`);
      // the next writer sweeps what the killed one left and publishes all that was committed
      await withWriter({ dbPath: db, command: 'test', applyViews: false }, async () => undefined);
      const now = await count(db);
      expect(now).toBeGreaterThanOrEqual(published);
      expect(now).toBe(await count(`${db}.writer`));
      published = now;
      expect((await checkCopy(`${db}.previous`)).state).toBe('good');
      expect(leftovers(dir, /\.publish-/)).toEqual([]);
    }
    console.log(`publish loop killed:\n  ${seen.join('\n  ')}\n  ${published} runs published in all`);
    // the kills that waited for a publish file did land inside a publish: the sweep above had something to remove
    expect(midPublish).toBeGreaterThan(0);
    expect(await totals(db)).toEqual(reference);
    expect(leftovers(dir, /\.aside-/)).toEqual([]);
  }, 60_000);
});
