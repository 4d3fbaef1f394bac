// Where a sync through real writing sessions spends its time, step by step (issue 28 §1), for bench:sync: the
// counters the writing sessions (shared-database.ts), the loads (load-billing.ts) and the page loader (page-loader.ts)
// keep in this process, read before and after the sync; and the floor of a publish – a plain `cp` of the database
// file, measured in the same run – and the one way these benchmarks run a sync (benchSync).
import { execFileSync } from 'node:child_process';
import { rmSync, statSync } from 'node:fs';
import type { Config } from '../src/config/schema.ts';
import { resolveAccounts } from '../src/extract/accounts.ts';
import { loaderIdle } from '../src/extract/page-loader.ts';
import { runSync } from '../src/extract/sync.ts';
import { loadTimings } from '../src/extract/load-billing.ts';
import { sessionSteps, writeSessions, writerHeld } from '../src/store/shared-database.ts';
import { silentLogger } from '../src/util/log.ts';

/** One sync into `dbPath` through real writing sessions, as `gpuledger sync` runs it; `env` holds the accounts' keys. */
export function benchSync(dbPath: string, config: Config, env: Record<string, string>): ReturnType<typeof runSync> {
  return runSync({ sessions: writeSessions({ dbPath, command: 'bench' }), config, accounts: resolveAccounts(config, config.apiUrl, env), log: silentLogger, command: 'bench' });
}

const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

type Snapshot = { steps: typeof sessionSteps; held: number; sessions: number; idle: number; load: number; pages: number };

export function snapshotSteps(): Snapshot {
  return { steps: { ...sessionSteps }, held: writerHeld.ms, sessions: writerHeld.sessions, idle: loaderIdle.ms, load: loadTimings.ms, pages: loadTimings.pages };
}

/**
 * The database side of a sync since `before`, in ms: the writer held less the loader's idle waits for pages is the
 * work; open (lock, writer copy, migrations and views), the billing loads, the materialised refresh, the checkpoint,
 * the close and the publish are its steps, and `other` the rest of the sessions' work (the run record, the inventory).
 */
export function stepsSince(before: Snapshot) {
  const now = snapshotSteps();
  const d = (k: keyof typeof sessionSteps) => now.steps[k] - before.steps[k];
  const held = now.held - before.held;
  const idle = now.idle - before.idle;
  const work = held - idle;
  const load = now.load - before.load;
  const named = d('open') + load + d('refresh') + d('checkpoint') + d('close') + d('publish');
  return {
    writing_sessions: now.sessions - before.sessions,
    writer_held_ms: round(held),
    loader_idle_ms: round(idle),
    database_work_ms: round(work),
    steps_ms: {
      open: round(d('open')),
      billing_loads: round(load),
      refresh_materialized: round(d('refresh')),
      checkpoint: round(d('checkpoint')),
      close: round(d('close')),
      publish: round(d('publish')),
      other: round(work - named),
    },
    pages_loaded: now.pages - before.pages,
  };
}

/** A plain `cp` of the file (no fsync), best of `runs`: the floor a publish is held to. */
export function cpFloor(path: string, runs = 3): { ms: number; bytes: number } {
  const to = `${path}.cp-floor`;
  let best = Infinity;
  try {
    for (let i = 0; i < runs; i++) {
      rmSync(to, { force: true });
      const t = performance.now();
      execFileSync('cp', [path, to]);
      best = Math.min(best, performance.now() - t);
    }
  } finally {
    rmSync(to, { force: true });
  }
  return { ms: round(best, 2), bytes: statSync(path).size };
}
