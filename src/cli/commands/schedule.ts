// `gpuledger schedule` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerSchedule(program: Command, _exit: ExitState): void {
  program
    .command('schedule')
    .description('the daemon that runs the configured jobs on their cron expressions')
    .action(() => {
      throw new NotImplementedError('schedule');
    });
}
