// npm run bench:shared-database – what the shared database (src/store/shared-database.ts) costs for the large
// simulated account: writers work on <db>.writer and publish <db> by copy + fsync + rename after a session, so readers
// never wait. Figures:
//
//  1. disk: the published file and the writer copy, each the size of the database (so 2× the database on disk, and a
//     third copy for the moment of a publish).
//  2. publish time ÷ the floor – a durable plain copy of the same file (copyFileSync + fsync, no rename), the cheapest
//     way to produce a second, independent copy a reader can open while the writer goes on. Best of 3 each, same run.
//  3. a writing session's overhead (open with migrations and views up to date, checkpoint, close, no publish) and a
//     reader's open, best of 3.
//
// The database: the large simulated account (seed 42), one year, every billing source at day buckets plus hour buckets
// for the last 14 days of pods and Serverless (the default sync), loaded straight from the simulator's ledger
// (test/helpers/simulator-loader.ts). Writes bench/results/shared-database.json.
import { closeSync, copyFileSync, fsyncSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../src/simulator/index.ts';
import { openStore } from '../src/store/database.ts';
import { identityOf } from '../src/store/publish.ts';
import { openReader, openWriter, publish, writerPathFor } from '../src/store/shared-database.ts';
import { loadSimulator } from '../test/helpers/simulator-loader.ts';

const NOW = '2026-11-20T00:00:00Z';
const RESULT = fileURLToPath(new URL('./results/shared-database.json', import.meta.url));

async function best(runs: number, fn: () => Promise<void> | void): Promise<number> {
  let ms = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    ms = Math.min(ms, Number(process.hrtime.bigint() - t) / 1e6);
  }
  return Math.round(ms);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-shared-'));
  const db = join(dir, 'gpuledger.duckdb');
  try {
    process.stderr.write('building the large simulated account (one year, default bucket sizes)…\n');
    const sim = await startSimulator({ seed: 42, scale: 'large', now: NOW, quotas: { minute: 1e6, hour: 1e7, day: 1e8 } });
    const built = Date.now();
    const store = await openStore({ path: writerPathFor(db), command: 'bench' });
    try {
      const end = new Date(NOW);
      const start = new Date(end.getTime() - 365 * 86_400_000);
      await loadSimulator(store, sim, { account: 'bench', bucketSizes: ['day'], start, end, chunk: 30 });
      await loadSimulator(store, sim, {
        account: 'bench', sources: ['pods', 'serverless'], bucketSizes: ['hour'], start: new Date(end.getTime() - 14 * 86_400_000), end, chunk: 24 * 7, inventory: false,
      });
      await store.run('checkpoint');
    } finally {
      await store.close();
      await sim.close();
    }
    const buildMs = Date.now() - built;
    const rows = await (async () => {
      const s = await openStore({ path: writerPathFor(db), readOnly: true });
      try {
        return (await s.one<{ n: string }>(`select (select count(*) from raw_billing_pods) + (select count(*) from raw_billing_serverless) +
          (select count(*) from raw_billing_aggregate) + (select count(*) from raw_billing_network_volumes) + (select count(*) from raw_billing_clusters) +
          (select count(*) from raw_billing_endpoints) as n`))!.n;
      } finally {
        await s.close();
      }
    })();

    // a first writing session applies migrations and views once; later ones find them up to date
    await (await openWriter({ dbPath: db, command: 'bench' })).close();
    const bytes = statSync(db).size;
    const floorMs = await best(3, () => {
      const to = join(dir, 'floor-copy.duckdb');
      copyFileSync(writerPathFor(db), to);
      const fd = openSync(to, 'r+');
      fsyncSync(fd);
      closeSync(fd);
    });
    // as a writing session publishes: <db> is the generation it opened on, known good, and becomes <db>.previous
    const publishMs = await best(3, () => publish(db, writerPathFor(db), { knownGood: identityOf(db) }));
    const sessionMs = await best(3, async () => (await openWriter({ dbPath: db, command: 'bench', publish: false })).close());
    const readerMs = await best(3, async () => (await openReader(db)).close());
    const ratio = Math.round((publishMs / floorMs) * 100) / 100;

    const result = {
      bench: 'shared-database',
      command: 'npm run bench:shared-database',
      machine: { cpus: cpus().length, model: cpus()[0]?.model },
      database: { account: 'large simulated account, seed 42, one year, day buckets + 14 days of hours for pods and Serverless', raw_billing_rows: Number(rows), build_ms: buildMs },
      figures: {
        disk: { published_mb: Math.round(bytes / 1e5) / 10, writer_copy_mb: Math.round(statSync(writerPathFor(db)).size / 1e5) / 10, previous_mb: Math.round(statSync(`${db}.previous`).size / 1e5) / 10, note: 'three copies at rest (published, writer, previous generation), a fourth during a publish' },
        publish: { ms: publishMs, floor_copy_ms: floorMs, ratio, floor: 'copyFileSync of the same file + fsync (a durable second copy; no rename, no directory fsync)' },
        writer_session_ms: { value: sessionMs, what: 'open with migrations and views up to date, checkpoint, close, no publish' },
        reader_open_ms: readerMs,
      },
    };
    mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    writeFileSync(RESULT, `${JSON.stringify(result, null, 2)}\n`);
    process.stdout.write(
      `database ${result.figures.disk.published_mb} MB (+ the same again for the writer copy)\n` +
        `publish ${publishMs} ms vs plain copy ${floorMs} ms → ${ratio}×\n` +
        `writing session ${sessionMs} ms, reader open ${readerMs} ms\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
