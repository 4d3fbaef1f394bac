// `gpuledger billing` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerBilling(program: Command, _exit: ExitState): void {
  program
    .command('billing')
    .argument('<kind>', 'pods, serverless or network-volume')
    .description("the platform CLI's billing views, answered from the database")
    .action(() => {
      throw new NotImplementedError('billing');
    });
}
