// `gpuledger views [--all]` – the public views with what one row of each is (from the header comments of sql/views);
// --all adds the internal stg_* and int_* views, listed apart: they may change in any release.
import type { Command } from 'commander';
import type { ExitState } from '../exit-state.ts';
import { defaultFormat, emit, OUTPUT_FORMATS, parseOutputFormat, print, type Table } from '../output.ts';

export function registerViews(program: Command, _exit: ExitState): void {
  program
    .command('views')
    .option('--format <format>', `${OUTPUT_FORMATS.join(', ')} (default: table on a terminal, ndjson in a pipe)`)
    .option('--all', 'also the internal stg_* and int_* views (building blocks that may change in any release)')
    .description('list the public SQL views with a one-line description each')
    .action(async (flags: { format?: string; all?: boolean }, command: Command) => {
      const format = flags.format ? parseOutputFormat(flags.format) : defaultFormat(undefined, Boolean(process.stdout.isTTY));
      const [{ contextFor }, { listViews }] = await Promise.all([import('../context.ts'), import('../../query/public-views.ts')]);
      // the list does not depend on the settings, but a broken config or --db is refused like in every other command
      contextFor(command, { demoFallback: false });
      const views = listViews({ all: flags.all });
      const table = (rows: typeof views, internalColumn: boolean): Table => ({
        columns: [
          { name: 'view', kind: 'text' },
          { name: 'layer', kind: 'text' },
          ...(internalColumn ? [{ name: 'internal', kind: 'boolean' as const }] : []),
          { name: 'description', kind: 'text' },
        ],
        rows: rows.map((v) => [v.name, v.layer, ...(internalColumn ? [v.internal] : []), v.description]),
      });
      if (!flags.all) return emit(table(views, false), { format });
      // a person reads the two groups apart; a program gets one list with a column saying which is which
      if (format !== 'table') return emit(table(views, true), { format });
      emit(table(views.filter((v) => !v.internal), false), { format });
      print('\nInternal views (building blocks; they may change in any release):');
      emit(table(views.filter((v) => v.internal), false), { format });
    });
}
