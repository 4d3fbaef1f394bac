// `gpuledger store check` – which copies of the database are good; `gpuledger store restore [--from COPY]` – bring
// back the newest good one (src/store/store-check.ts, restore.ts; README "Operations"). check exits 1 when no copy
// gpuledger writes to or restores from is good.
import { relative, resolve } from 'node:path';
import type { Command } from 'commander';
import type { CopyReport } from '../../store/store-check.ts';
import { EXIT } from '../../util/errors.ts';
import type { ExitState } from '../exit-state.ts';
import { defaultFormat, emit, OUTPUT_FORMATS, parseOutputFormat, type Table } from '../output.ts';
import { waitMs } from '../option-values.ts';

/** Whether a path names the demo database (DEMO_DB) or one of its copies (`data/demo.duckdb.previous`, `.aside-…`). */
function isDemoCopy(path: string, demoDb: string): boolean {
  const demo = resolve(demoDb);
  const file = resolve(path);
  return file === demo || file.startsWith(`${demo}.`);
}

function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel && !rel.startsWith('..') ? rel : path;
}

function copiesTable(reports: readonly CopyReport[], chosen: CopyReport | undefined, older: readonly CopyReport[]): Table {
  const text = (name: string) => ({ name, kind: 'text' as const });
  return {
    columns: [text('copy'), text('file'), text('state'), { name: 'schema', kind: 'number' }, text('last_run'), text('data_through'), text('newest_record'), { name: 'size_mb', kind: 'number' }, text('modified'), text('problem')],
    rows: reports.map((r) => [
      r.role,
      shown(r.path),
      r === chosen ? 'good (newest)' : r.state,
      r.schemaVersion ?? null,
      r.lastRun ?? '',
      r.dataThrough ?? '',
      r.newest ?? '',
      Math.round(r.bytes / 1e5) / 10,
      r.modified.toISOString().slice(0, 19) + 'Z',
      r.problem ?? '',
    ]),
    footer: [
      chosen ? `newest good copy: ${shown(chosen.path)} (${chosen.role})` : 'no good copy: gpuledger store restore has nothing to bring back; see README "Operations"',
      // a backup copied over <db> or the writer copy by hand: say which holds less, and what brings the newest back
      ...older.map(
        (r) => `${shown(r.path)} (${r.role}) holds older data than ${shown(chosen!.path)} (newest record ${r.newest ?? 'none'} against ${chosen!.newest}); gpuledger store restore brings the newest back, keeping it aside`,
      ),
    ],
  };
}

export function registerStore(program: Command, exit: ExitState): void {
  const store = program.command('store').description('the copies of the database gpuledger keeps: check them, restore the newest good one');
  store
    .command('check')
    .option('--format <format>', `${OUTPUT_FORMATS.join(', ')} (default: table on a terminal, ndjson in a pipe)`)
    .option('--wait <seconds>', 'wait this long for a writing session to end', '60')
    .description('list each copy (published, writer, previous, set aside) and whether it opens as a gpuledger database')
    .action(async (flags: { format?: string; wait?: string }, command: Command) => {
      const format = flags.format ? parseOutputFormat(flags.format) : defaultFormat(undefined, Boolean(process.stdout.isTTY));
      const wait = waitMs(flags.wait, 60);
      const [{ contextFor }, { checkCopies, newestGood, olderThanNewest }] = await Promise.all([import('../context.ts'), import('../../store/store-check.ts')]);
      const { settings } = contextFor(command);
      const reports = await checkCopies(settings.dbPath, { waitMs: wait });
      const chosen = newestGood(reports);
      emit(copiesTable(reports, chosen, olderThanNewest(reports, chosen)), { format });
      if (!chosen) exit.code = EXIT.failure;
    });
  store
    .command('restore')
    .option('--from <copy>', 'writer, published, previous, the file name of a copy set aside, or a backup file (default: the newest good copy)')
    .option('--wait <seconds>', 'wait this long for a running sync or writing session to end', '0')
    .description('make the newest good copy (or --from COPY) the writer copy and the published database; replaced copies are set aside, never deleted')
    .action(async (flags: { from?: string; wait?: string }, command: Command) => {
      const wait = waitMs(flags.wait, 60);
      const [{ contextFor }, { restoreStore }, { DEMO_DB }] = await Promise.all([import('../context.ts'), import('../../store/restore.ts'), import('../../config/demo-database.ts')]);
      // a backup file is restored as the real database even while only the demo's exists (a lost database is
      // exactly when that happens); the copies named by role or set aside are those of the database in use – and a
      // path to one of the demo database's own copies (data/demo.duckdb.aside-…, as a restore of the demo names
      // them) is one of those, not a backup (issue 38)
      const backupFile = flags.from !== undefined && (/[\\/]/.test(flags.from) || flags.from.endsWith('.duckdb')) && !isDemoCopy(flags.from, DEMO_DB);
      const { settings, log } = contextFor(command, { demoFallback: !backupFile });
      const result = await restoreStore(settings.dbPath, { from: flags.from, waitMs: wait });
      const from = `${shown(result.from.path)} (${result.from.role}, last run ${result.from.lastRun ?? 'none'}, newest record ${result.from.newest ?? 'none'})`;
      if (result.nothingToDo) return log.info(`nothing to restore: the newest good copy ${from} is already the writer copy and the published database`);
      for (const a of result.setAside) log.warn(`kept the ${a.role} copy ${shown(a.path)} (${a.state}${a.newest ? `, newest record ${a.newest}` : ''}) as ${shown(a.to)}`);
      log.info(`restored ${from}${result.published ? ` and published it as ${shown(settings.dbPath)}` : ` as the writer copy; ${shown(settings.dbPath)} already was this copy`}`);
    });
}
