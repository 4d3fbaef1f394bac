// `gpuledger views` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerViews(program: Command, _exit: ExitState): void {
  program
    .command('views')
    .description('list the public SQL views with a one-line description each')
    .action(() => {
      throw new NotImplementedError('views');
    });
}
