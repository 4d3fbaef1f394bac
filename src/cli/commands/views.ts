// `gpuledger views` – the public views with what one row of each is (from the header comments of sql/views).
import type { Command } from 'commander';
import type { ExitState } from '../exit-state.ts';
import { defaultFormat, emit, OUTPUT_FORMATS, parseOutputFormat } from '../output.ts';

export function registerViews(program: Command, _exit: ExitState): void {
  program
    .command('views')
    .option('--format <format>', `${OUTPUT_FORMATS.join(', ')} (default: table on a terminal, ndjson in a pipe)`)
    .description('list the public SQL views with a one-line description each')
    .action(async (flags: { format?: string }, command: Command) => {
      const format = flags.format ? parseOutputFormat(flags.format) : defaultFormat(undefined, Boolean(process.stdout.isTTY));
      const [{ contextFor }, { listPublicViews }] = await Promise.all([import('../context.ts'), import('../../query/public-views.ts')]);
      // the list does not depend on the settings, but a broken config or --db is refused like in every other command
      contextFor(command);
      const views = listPublicViews();
      emit(
        {
          columns: [
            { name: 'view', kind: 'text' },
            { name: 'layer', kind: 'text' },
            { name: 'description', kind: 'text' },
          ],
          rows: views.map((v) => [v.name, v.layer, v.description]),
        },
        { format },
      );
    });
}
