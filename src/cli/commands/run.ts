// `gpuledger run` – not built yet: says so and exits 2 (DESIGN.md command names are reserved).
import type { Command } from 'commander';
import { NotImplementedError } from '../../util/errors.ts';
import type { ExitState } from '../main.ts';

export function registerRun(program: Command, _exit: ExitState): void {
  program
    .command('run')
    .description('the nightly job: sync → report → alerts → email')
    .action(() => {
      throw new NotImplementedError('run');
    });
}
