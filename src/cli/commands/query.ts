// `gpuledger query` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerQuery(program: Command, _exit: ExitState): void {
  program
    .command('query')
    .argument('<sql>', 'a read-only SQL statement')
    .description('run read-only SQL against the database')
    .action(() => {
      throw new NotImplementedError('query');
    });
}
