// `gpuledger report` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerReport(program: Command, _exit: ExitState): void {
  program
    .command('report')
    .description('render a report workbook (and email it with --email)')
    .action(() => {
      throw new NotImplementedError('report');
    });
}
