// `gpuledger simulator` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerSimulator(program: Command, _exit: ExitState): void {
  program
    .command('simulator')
    .description('serve a simulated platform API (billing, inventory, GraphQL) on loopback for demos and tests')
    .action(() => {
      throw new NotImplementedError('simulator');
    });
}
