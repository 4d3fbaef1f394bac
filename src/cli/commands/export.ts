// `gpuledger export` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerExport(program: Command, _exit: ExitState): void {
  program
    .command('export')
    .argument('<what>', 'focus or lake')
    .description('export the cost facts as FOCUS or a Hive-partitioned Parquet lake')
    .action(() => {
      throw new NotImplementedError('export');
    });
}
