// `gpuledger guardrails plan | apply [--approve ID…|--all --yes] | undo ID` (issue 40): what the guardrails would
// stop now and why (read routes only), carrying out the automatic rules and the approved proposals – each exactly
// once, verified and recorded in _meta_guardrail_actions –, and putting back what one action changed.
// Only reversible actions exist (src/config/guardrails.ts). Exit 3 when a write was refused (403) or did not take.
import { userInfo } from 'node:os';
import type { Command } from 'commander';
import { EXIT, UsageError } from '../../util/errors.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';
import { waitMs as waitOptionMs } from '../option-values.ts';

interface ApplyFlags {
  approve?: string[];
  all?: boolean;
  yes?: boolean;
  wait?: string;
}

function approver(): string {
  try {
    return userInfo().username;
  } catch {
    return 'an unknown user';
  }
}

async function setup(command: Command) {
  const [{ contextFor }, { guardrailAccounts, closeAccounts }, shared, { withBudgets }] = await Promise.all([
    import('../context.ts'),
    import('../../guardrail/accounts.ts'),
    import('../../store/shared-database.ts'),
    import('../../alert/load-budgets.ts'),
  ]);
  const { settings, log } = contextFor(command);
  const accounts = guardrailAccounts(settings.config, settings.apiUrl, process.env, log);
  const read = <T>(fn: (store: import('../../store/database.ts').Store) => Promise<T>) =>
    shared.withReader(settings.dbPath, (store) => withBudgets(store, settings.config.alerts.budgets, fn));
  return { settings, log, accounts, read, shared, close: () => closeAccounts(accounts) };
}

export function registerGuardrails(program: Command, exit: ExitState): void {
  const guardrails = program.command('guardrails').description('stop what burns money – reversible actions only: plan, apply, undo');

  guardrails
    .command('plan')
    .description('print what each guardrail would do now and why (reads only)')
    .action(async (_flags: unknown, command: Command) => {
      const s = await setup(command);
      try {
        const { planGuardrails, planText } = await import('../../guardrail/index.ts');
        const plans = await s.read((store) => planGuardrails(s.settings.config.guardrails, s.accounts, store));
        for (const line of planText(plans)) print(line);
      } finally {
        await s.close();
      }
    });

  guardrails
    .command('apply')
    .description('carry out the automatic guardrails and the approved proposals, each once, verified and recorded')
    .option('--approve <id...>', 'carry out these proposals of manual rules (ids from guardrails plan)')
    .option('--all', 'carry out every proposal of every rule (needs --yes)')
    .option('--yes', 'confirm --all')
    .option('--wait <seconds>', 'wait this long for another guardrail run or writer to finish', '0')
    .action(async (flags: ApplyFlags, command: Command) => {
      if (flags.all && !flags.yes) throw new UsageError('--all carries out every proposal of every rule: add --yes to confirm');
      if (flags.all && flags.approve?.length) throw new UsageError('give either --approve ID… or --all --yes, not both');
      const s = await setup(command);
      try {
        const [{ applyGuardrails, applyText }] = await Promise.all([import('../../guardrail/index.ts')]);
        const waitMs = Math.max(waitOptionMs(flags.wait), s.shared.SESSION_WAIT_MS);
        const result = await applyGuardrails({
          rules: s.settings.config.guardrails,
          accounts: s.accounts,
          dbPath: s.settings.dbPath,
          sessions: s.shared.writeSessions({ dbPath: s.settings.dbPath, command: 'guardrails apply', waitMs, log: s.log, applyViews: false }),
          read: s.read,
          approve: flags.approve ?? [],
          all: flags.all === true,
          approver: approver(),
          command: 'guardrails apply',
          waitMs: waitOptionMs(flags.wait),
          onWait: (m) => s.log.info(m),
        });
        for (const line of applyText(result)) print(line);
        const bad = result.forbidden.length > 0 || result.acted.some((a) => a.completed.outcome === 'failed' || a.completed.outcome === 'changed-elsewhere');
        if (bad) exit.code = EXIT.partial;
      } finally {
        await s.close();
      }
    });

  guardrails
    .command('undo <id>')
    .description('put back the state a guardrail action found (start the pod, restore workersMin/workersMax)')
    .option('--wait <seconds>', 'wait this long for another guardrail run or writer to finish', '0')
    .action(async (id: string, flags: { wait?: string }, command: Command) => {
      const s = await setup(command);
      try {
        const { undoGuardrail } = await import('../../guardrail/index.ts');
        const waitMs = Math.max(waitOptionMs(flags.wait), s.shared.SESSION_WAIT_MS);
        const { row, completed } = await undoGuardrail({
          id,
          accounts: s.accounts,
          dbPath: s.settings.dbPath,
          sessions: s.shared.writeSessions({ dbPath: s.settings.dbPath, command: 'guardrails undo', waitMs, log: s.log, applyViews: false }),
          approver: approver(),
          command: 'guardrails undo',
          waitMs: waitOptionMs(flags.wait),
        });
        print(`${completed.actionId}  ${completed.outcome}: undo of ${row.actionId} (${row.resourceType} ${row.resourceId}) – ${completed.detail}`);
        if (completed.outcome !== 'done' && completed.outcome !== 'no-op') exit.code = EXIT.partial;
      } finally {
        await s.close();
      }
    });
}
