// Test-only kill points (issue 40 "Done when": a SIGKILL at every step of apply). GPULEDGER_TEST_KILL_AT=STEP[:N]
// ends the process with SIGKILL the Nth time (default the first) it reaches STEP – before-write (the intent is
// committed, nothing sent), after-write (sent, outcome not recorded) or after-record (the outcome is committed).
// Unset, as in every real run, a kill point does nothing.
export type KillStep = 'before-write' | 'after-write' | 'after-record';

const reached = new Map<KillStep, number>();

export function killPoint(step: KillStep): void {
  const spec = process.env.GPULEDGER_TEST_KILL_AT;
  if (!spec) return;
  const [name, n = '1'] = spec.split(':');
  if (name !== step) return;
  const count = (reached.get(step) ?? 0) + 1;
  reached.set(step, count);
  if (count === Number(n)) process.kill(process.pid, 'SIGKILL');
}
