// `gpuledger alerts` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerAlerts(program: Command, _exit: ExitState): void {
  program
    .command('alerts')
    .description('evaluate alert rules and deliver new, escalated and resolved alerts')
    .action(() => {
      throw new NotImplementedError('alerts');
    });
}
