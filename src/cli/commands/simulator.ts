// `gpuledger simulator`: serve the simulated platform API on loopback until SIGINT/SIGTERM (DESIGN.md).
// Flag values are checked here and a bad one is a UsageError naming the flag and what it accepts (exit 2).
import type { Command } from 'commander';
import { parseRfc3339 } from '../../util/dates.ts';
import { UsageError } from '../../util/errors.ts';
import { parseFaultSpec } from '../../simulator/http/faults.ts';
import type { SimulatorOptions } from '../../simulator/index.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';
import { untilStopped } from '../until-stopped.ts';
import { collect } from '../option-values.ts';

interface SimulatorFlags {
  host: string;
  port: string;
  seed: string;
  scale: string;
  now?: string;
  anchor?: string;
  key: string[];
  restrictedKey: string[];
  /** Optional so that callers building flags by hand need not name it. */
  readOnlyKey?: string[];
  faults?: string;
  quotaMinute?: string;
  quotaHour?: string;
  quotaDay?: string;
  sparse?: boolean;
  hostileNames?: boolean;
  /** key=seed or key=seed:postpaid, repeatable; optional so that callers building flags by hand need not name it. */
  account?: string[];
  /** The main account is post-paid (invoiced). */
  postpaid?: boolean;
  /** KIND:SEED, a labelled scenario account (src/simulator/scenarios/). */
  scenario?: string;
}

/** `--scenario KIND:SEED`; the kind is checked when the scenario is built (an unknown one lists the kinds). */
function scenarioRef(value: string): NonNullable<SimulatorOptions['scenario']> {
  const m = /^([a-z][a-z-]*):(\d{1,9})$/.exec(value.trim());
  if (!m) throw new UsageError(`--scenario must be KIND:SEED, e.g. left-on:3 (the kinds are listed in docs/simulator.md); got '${value}'`);
  return { kind: m[1]!, seed: Number(m[2]) };
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got '${value}'`);
  }
  return n;
}

/** The keys the simulator accepts unless --key/--restricted-key name others (simulator/start.ts; a test checks they agree). */
export const DEFAULT_SIMULATOR_KEYS = { full: 'sim-demo-key', restricted: 'sim-restricted-key', readOnly: 'sim-readonly-key' } as const;

/** `--account KEY=SEED[:postpaid]`: one more simulated account behind its own key (and so its own quota). */
function accountSpec(value: string): NonNullable<SimulatorOptions['accounts']>[number] {
  // the key is never echoed (it may be a real one): the message gives the value's length only
  const m = /^([^=\s]+)=(\d+)(?::(postpaid|prepaid))?$/.exec(value.trim());
  if (!m) throw new UsageError(`--account must be KEY=SEED or KEY=SEED:postpaid (a key without spaces, a seed from 0 to ${2 ** 32 - 1}), e.g. team-a-key=7; got a value of ${value.length} characters`);
  return { key: m[1]!, seed: integer(m[2]!, '--account seed', 0, 2 ** 32 - 1), ...(m[3] === 'postpaid' ? { postpaid: true } : {}) };
}

export function simulatorOptionsFromFlags(flags: SimulatorFlags): SimulatorOptions {
  if (!['small', 'medium', 'large'].includes(flags.scale)) {
    throw new UsageError(`--scale must be small, medium or large, got '${flags.scale}'`);
  }
  const quotas: SimulatorOptions['quotas'] = {};
  if (flags.quotaMinute !== undefined) quotas.minute = integer(flags.quotaMinute, '--quota-minute', 1, 1e9);
  if (flags.quotaHour !== undefined) quotas.hour = integer(flags.quotaHour, '--quota-hour', 1, 1e9);
  if (flags.quotaDay !== undefined) quotas.day = integer(flags.quotaDay, '--quota-day', 1, 1e9);
  return {
    host: flags.host,
    port: integer(flags.port, '--port', 0, 65535),
    seed: integer(flags.seed, '--seed', 0, 2 ** 32 - 1),
    scale: flags.scale as SimulatorOptions['scale'],
    ...(flags.now !== undefined ? { now: parseRfc3339(flags.now, '--now') } : {}),
    ...(flags.anchor !== undefined ? { anchor: parseRfc3339(flags.anchor, '--anchor') } : {}),
    keys: flags.key.length ? flags.key : [DEFAULT_SIMULATOR_KEYS.full],
    restrictedKeys: flags.restrictedKey.length ? flags.restrictedKey : [DEFAULT_SIMULATOR_KEYS.restricted],
    readOnlyKeys: flags.readOnlyKey?.length ? flags.readOnlyKey : [DEFAULT_SIMULATOR_KEYS.readOnly],
    quotas,
    ...(flags.faults !== undefined ? { faults: parseFaultSpec(flags.faults, '--faults') } : {}),
    sparse: flags.sparse === true,
    ...(flags.hostileNames ? { hostileNames: true } : {}),
    ...(flags.account?.length ? { accounts: flags.account.map(accountSpec) } : {}),
    ...(flags.postpaid === true ? { postpaid: true } : {}),
    ...(flags.scenario !== undefined ? { scenario: scenarioRef(flags.scenario) } : {}),
  };
}

export function registerSimulator(program: Command, _exit: ExitState): void {
  program
    .command('simulator')
    .description('serve a simulated platform API (billing, inventory, GraphQL) on loopback for demos and tests')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', '8787')
    .option('--seed <n>', 'seed of the synthetic account and of the faults', '42')
    .option('--scale <scale>', 'small, medium or large', 'small')
    .option('--now <rfc3339>', 'fix the simulated clock at this time (default: run with the wall clock)')
    .option('--anchor <rfc3339>', 'make the synthetic account as of this time (default: the start time); start again with the same --anchor and a later --now to see the same past later')
    .option('--key <key>', 'a valid full-access API key (repeatable; default sim-demo-key)', collect, [])
    .option('--restricted-key <key>', 'a valid key without the billing scope (repeatable; default sim-restricted-key)', collect, [])
    .option('--read-only-key <key>', 'a valid key that reads everything but may not stop pods or change endpoints (repeatable; default sim-readonly-key)', collect, [])
    .option('--faults <spec>', 'fault injection, e.g. 5xx=0.1,reset=0.05,truncate=0.02,latency=200ms,drift=pods,429=0.1,graphql=down')
    .option('--quota-minute <n>', 'requests per minute and key (default 60)')
    .option('--quota-hour <n>', 'requests per hour and key (default 3000)')
    .option('--quota-day <n>', 'requests per day and key (default 50000)')
    .option('--sparse', 'return only non-zero billing records (default: a dense grid)')
    .option('--hostile-names', 'serve every name (pods, endpoints, templates, volumes, clusters, GPU types) as a red team would: markup, formulas, bidi overrides, CR/LF, 40,000 characters (docs/simulator.md)')
    .option('--account <key=seed>', 'serve one more account behind its own key and quota, made from this seed; key=seed:postpaid makes it post-paid (repeatable)', collect, [])
    .option('--postpaid', 'the main account is post-paid (invoiced): its balance reads $0 or below and nothing is suspended')
    .option('--scenario <kind:seed>', 'serve a labelled scenario account of the judgement benchmark instead (e.g. left-on:3); the clock stands at its end unless --now')
    .action(async (flags: SimulatorFlags) => {
      const options = simulatorOptionsFromFlags(flags);
      // the synthetic account and the HTTP server load only when the simulator runs (issue 11)
      const { startSimulator } = await import('../../simulator/index.ts');
      const sim = await startSimulator(options);
      // the default key is public (docs/simulator.md); a key given with --key may be a real one, so it is never printed
      const keys = flags.key.length > 0 ? `${flags.key.length} set with --key, not shown` : DEFAULT_SIMULATOR_KEYS.full;
      const postpaid = (options.accounts ?? []).filter((a) => a.postpaid).length;
      const more = options.accounts?.length ? `, ${options.accounts.length} more account(s) behind their --account keys${postpaid ? ` (${postpaid} post-paid)` : ''}` : '';
      const main = `${options.postpaid ? ', post-paid' : ''}${options.hostileNames ? ', hostile names' : ''}`;
      const what = sim.scenario ? `scenario ${sim.scenario.kind}:${sim.scenario.seed}, scale ${sim.scenario.scale}, now ${sim.now().toISOString()}` : `scale ${options.scale}, seed ${options.seed}`;
      print(`simulator listening on ${sim.url} (${what}${main}, keys: ${keys}${more})`);
      await untilStopped();
      await sim.close();
    });
}
