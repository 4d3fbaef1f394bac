// `gpuledger sync [--source LIST] [--bucket-size SIZE] [--since T] [--until T] [--account NAME] [--plan] [--wait S]`:
// extract billing histories and inventory into the database. Prints a summary table on stdout; exit 3 when some
// sources failed (DESIGN.md exit codes).
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import type { Source } from '../../config/sync.ts';
import type { SyncResult } from '../../extract/sync.ts';
import { BUCKET_SIZES, isBucketSize, type BucketSize } from '../../util/buckets.ts';
import { parseRfc3339 } from '../../util/dates.ts';
import { unitText } from '../../model/unit-text.ts';
import { microsToDecimalString } from '../../util/decimal.ts';
import { EXIT, UsageError } from '../../util/errors.ts';
import type { ExitState } from '../exit-state.ts';
import { emit, type Table } from '../output.ts';
import { listenForStop, type Stopping } from '../sync-stop.ts';
import { storingConfig } from '../../alert/store-config.ts';
import { waitMs } from '../option-values.ts';

interface SyncFlags {
  source?: string;
  bucketSize?: string;
  since?: string;
  until?: string;
  account?: string;
  plan?: boolean;
  wait?: string;
}

export interface ParsedSyncFlags {
  sources?: Source[];
  bucketSize?: BucketSize;
  since?: Date;
  until?: Date;
  waitMs: number;
}

/** `sources` is config/sync.ts's SOURCES, passed in so that registering the command does not load zod. */
export function parseSyncFlags(flags: SyncFlags, SOURCES: readonly Source[], now: Date = new Date()): ParsedSyncFlags {
  let sources: Source[] | undefined;
  if (flags.source !== undefined) {
    sources = flags.source.split(',').map((s) => s.trim()).filter(Boolean) as Source[];
    const bad = sources.find((s) => !(SOURCES as readonly string[]).includes(s));
    if (bad !== undefined || sources.length === 0) {
      throw new UsageError(`--source: unknown source '${bad ?? flags.source}'; expected a comma-separated list of ${SOURCES.join(', ')}`);
    }
  }
  if (flags.bucketSize !== undefined && !isBucketSize(flags.bucketSize)) {
    throw new UsageError(`--bucket-size must be one of ${BUCKET_SIZES.join(', ')}, got '${flags.bucketSize}'`);
  }
  const since = flags.since === undefined ? undefined : parseRfc3339(flags.since, '--since');
  const until = flags.until === undefined ? undefined : parseRfc3339(flags.until, '--until');
  // nothing can be billed after now: such a sync would read nothing and report success (issue 12 §5)
  if (since && since > now) {
    throw new UsageError(`--since ${flags.since} is in the future (it is now ${now.toISOString().slice(0, 19)}Z); pass a time before now`);
  }
  if (since && until && since >= until) {
    throw new UsageError(`--since (${flags.since}) must be before --until (${flags.until})`);
  }
  return { sources, bucketSize: flags.bucketSize as BucketSize | undefined, since, until, waitMs: waitMs(flags.wait) };
}

function dollars(micros: bigint): string {
  // the summary shows cents; the database keeps every micro-dollar
  const s = microsToDecimalString(micros);
  return s.slice(0, s.indexOf('.') + 3);
}

export function summaryTable(result: SyncResult): Table {
  return {
    columns: [
      { name: 'account', kind: 'text' },
      { name: 'source', kind: 'text' },
      { name: 'bucket', kind: 'text' },
      { name: 'requests', kind: 'number' },
      { name: 'records', kind: 'number' },
      { name: 'amount_usd', kind: 'exact-number' },
      { name: 'complete_through', kind: 'text' },
      { name: 'status', kind: 'text' },
    ],
    rows: result.ranges.map((r) => [
      r.account,
      r.source,
      r.bucketSize,
      r.requests,
      r.records,
      r.source === 'inventory' || r.source === 'health' || r.source === 'balance' ? null : dollars(r.amountMicros),
      // nothing complete yet: an empty cell, never null or a 1970 date
      r.completeThrough ?? '',
      r.error ? `${r.status}: ${r.error}` : r.status,
    ]).concat(
      // an account that failed as a whole (a rejected key, a host that never answered) has no range: it gets a row, so
      // one bad account among many is never silent
      result.errors.filter((e) => e.source === '*').map((e) => [e.account, 'all', '', 0, 0, null, '', `failed: ${e.message}`]),
    ),
    footer: [
      `run ${result.runId}: ${result.status} · ${result.requests} requests (${result.retries} retried, ${result.rateLimited} rate-limited) · ` +
        `${unitText(result.records, 'count')} records · ${(result.bytes / 1e6).toFixed(1)} MB`,
      ...result.warnings.map((w) => `warning: ${w}`),
    ],
  };
}

/** The command itself; `stopping` is the signal handler's, installed before anything loads. */
async function syncCommand(flags: SyncFlags, command: Command, exit: ExitState, stopping: Stopping): Promise<void> {
  // undici, the extractors and DuckDB load only when a sync runs, so --help and other commands start fast
  const [{ SOURCES }, { contextFor }, { resolveAccounts, resolvePlanAccounts }, { planSync }, { createProgress }, { runSync }, { openForReading }, { acquireSyncLock, describeWait }, { SESSION_WAIT_MS, writeSessions }] =
    await Promise.all([
      import('../../config/sync.ts'),
      import('../context.ts'),
      import('../../extract/accounts.ts'),
      import('../../extract/plan-report.ts'),
      import('../../extract/progress.ts'),
      import('../../extract/sync.ts'),
      import('../../query/open-database.ts'),
      import('../../store/lock.ts'),
      import('../../store/shared-database.ts'),
    ]);
  // a sync fills the real database, never the demo's: no demo fallback (src/config/demo-database.ts)
  const { settings, log } = contextFor(command, { demoFallback: false });
  const parsed = parseSyncFlags(flags, SOURCES);
  const range = { config: settings.config, sources: parsed.sources, bucketSize: parsed.bucketSize, since: parsed.since, until: parsed.until };
  if (flags.plan) {
    // a plan calls no billing route, so it needs no key: without one it is made from the store and the clock
    const accounts = resolvePlanAccounts(settings.config, settings.apiUrl, process.env, flags.account);
    const store = existsSync(settings.dbPath) ? await openForReading(settings.dbPath) : undefined;
    try {
      const plan = await planSync({ ...range, accounts, store });
      emit(
        {
          columns: ['account', 'source', 'bucket', 'reason', 'start', 'end', 'buckets', 'expected_records', 'requests'].map((name) => ({
            name,
            kind: ['buckets', 'expected_records', 'requests'].includes(name) ? ('number' as const) : ('text' as const),
          })),
          rows: plan.rows.map((r) => [r.account, r.source, r.bucketSize, r.reason, r.start, r.end, r.buckets, r.expectedRecords, r.requests]),
          footer: [
            `${plan.requests} billing requests` +
              (plan.minutes === undefined ? '' : ` ≈ ${plan.minutes.toFixed(1)} min at the current quota (${plan.quota})`) +
              `; plus ~8 inventory requests per account`,
            ...plan.notRead.map((line) => `not read: ${line}`),
            ...(plan.withoutKey.length === 0
              ? []
              : [`no API key for ${plan.withoutKey.join(', ')}: planned without asking the API (this machine's clock, ${store ? 'the densities of earlier loads, else ' : ''}one record per bucket, quota unknown)`]),
          ],
        },
        { format: 'table' },
      );
    } finally {
      await store?.close();
    }
    return;
  }
  const accounts = resolveAccounts(settings.config, settings.apiUrl, process.env, flags.account);
  const common = { ...range, accounts };
  // one sync at a time for the whole run; the database itself is held only in short writing sessions
  const lock = await acquireSyncLock(settings.dbPath, { command: 'sync', waitMs: parsed.waitMs, onWait: (m) => log.info(m) });
  const waited = describeWait(lock, 'its sync');
  if (waited) log.info(waited);
  stopping.started(log);
  try {
    const result = await runSync({
      ...common,
      sessions: writeSessions({ dbPath: settings.dbPath, command: 'sync', waitMs: Math.max(parsed.waitMs, SESSION_WAIT_MS), log, prepare: storingConfig(settings.config) }),
      log,
      command: 'sync',
      args: process.argv.slice(2).join(' '),
      signal: stopping.signal,
      progress: createProgress(log),
    });
    emit(summaryTable(result), { format: 'table' });
    if (result.status === 'partial') exit.code = EXIT.partial;
    if (result.status === 'failed') exit.code = EXIT.failure;
    // a signal during the run's last writes, after it rolled up its status: still never "success" (issue 26 §7)
    if (stopping.signal.aborted && result.status === 'success') {
      log.warn(`${String(stopping.signal.reason)} came as the sync was finishing: everything was read and loaded, but it ends as stopped (exit 3)`);
      exit.code = EXIT.partial;
    }
  } finally {
    lock.release();
  }
}

export function registerSync(program: Command, exit: ExitState): void {
  program
    .command('sync')
    .description('extract billing histories and inventory into the database')
    // the list is spelled out so --help does not load zod with config/sync.ts; test/cli checks it names every source
    .option('--source <list>', 'comma-separated sources (aggregate, pods, serverless, network-volumes, endpoints, clusters, inventory, health, balance); default: config sync.sources')
    .option('--bucket-size <size>', `one bucket size for every billing source (${BUCKET_SIZES.join(', ')}); default: config sync.bucketSizes`)
    .option('--since <rfc3339>', 'read from here (a backfill), instead of resuming after the last sync')
    .option('--until <rfc3339>', 'read up to here (exclusive) instead of now')
    .option('--account <name>', 'only this account of the config')
    .option('--plan', 'print the requests a sync would make and their cost at the current quota; call no billing route')
    .option('--wait <seconds>', 'wait up to this long for another sync (or the nightly run) to finish', '0')
    .action(async (flags: SyncFlags, command: Command) => {
      const stopping = listenForStop();
      try {
        await syncCommand(flags, command, exit, stopping);
      } finally {
        stopping.dispose();
      }
    });
}
