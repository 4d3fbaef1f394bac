// `gpuledger sync` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerSync(program: Command, _exit: ExitState): void {
  program
    .command('sync')
    .description('extract billing histories and inventory into the database')
    .action(() => {
      throw new NotImplementedError('sync');
    });
}
