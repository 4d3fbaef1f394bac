// Shared pieces of the guardrail tests: a simulator at the fixed now, a database synced from it in this process, a
// config with one budget the account has long crossed, the CLI's guardrails commands, and the audit rows and pod
// states as the simulator and the database hold them.
import type { ConfigInput } from '../../src/config/schema.ts';
import type { Simulator } from '../../src/simulator/index.ts';
import { gpuledger, startGpuledger, type CliEnd, type CliResult } from './cli.ts';
import { fastSimulator, KEY, openTestStore, smallSyncConfig, syncOnce, writeConfig } from './sync.ts';
import { tempDir, type TempDir } from './temp-dir.ts';

export const HOUR = 3_600_000;
/** A month budget of $1: crossed long ago by the synthetic account, so a budget trigger fires. */
export const TINY_BUDGET = { name: 'gpu-month', amount: 1 };

export interface GuardrailRig extends TempDir {
  sim: Simulator;
  config: string;
  configInput: ConfigInput;
  run(args: string[], key?: string): Promise<CliResult>;
  /** The CLI with more environment (a kill point): how it ended, signal included. */
  runEnv(args: string[], env: NodeJS.ProcessEnv): Promise<CliEnd>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** A simulator, its rules (made from what it serves) in a config, and a database synced once. */
export async function guardrailRig(rules: (sim: Simulator) => Promise<unknown[]>, options: Parameters<typeof fastSimulator>[0] = {}): Promise<GuardrailRig> {
  const tmp = tempDir('gpuledger-guardrails-');
  const sim = await fastSimulator(options);
  const guardrails = await rules(sim);
  const configInput = smallSyncConfig(sim, { alerts: { budgets: [TINY_BUDGET] }, guardrails } as Partial<ConfigInput>);
  const config = writeConfig(tmp.dir, configInput);
  const sync = async () => {
    const store = await openTestStore(tmp.db);
    try {
      await syncOnce(store, configInput);
    } finally {
      await store.close();
    }
  };
  await sync();
  return {
    ...tmp,
    sim,
    config,
    configInput,
    sync,
    run: (args, key = KEY) => gpuledger(['--config', config, '--db', tmp.db, 'guardrails', ...args], { GPULEDGER_TEST_KEY: key }),
    runEnv: (args, env) => startGpuledger(['--config', config, '--db', tmp.db, 'guardrails', ...args], { GPULEDGER_TEST_KEY: KEY, ...env }).ended,
    close: async () => {
      await sim.close();
      tmp.cleanup();
    },
  };
}

export interface SimPodView {
  id: string;
  name: string;
  status: string;
  cost: number;
  cluster?: unknown;
}

export async function podsNow(sim: Simulator): Promise<SimPodView[]> {
  const res = await fetch(`${sim.url}/v2/pods`, { headers: { Authorization: `Bearer ${KEY}` } });
  return ((await res.json()) as { pods: SimPodView[] }).pods;
}

/** Running pods outside clusters, costliest first (the order a rule takes them in), then by id. */
export async function runningPods(sim: Simulator): Promise<SimPodView[]> {
  return (await podsNow(sim))
    .filter((p) => p.status === 'RUNNING' && !p.cluster)
    .sort((a, b) => b.cost - a.cost || (a.id < b.id ? -1 : 1));
}

/** The pod-action writes the simulator has answered or reset, per route. */
export const podWrites = (sim: Simulator): number => sim.stats().byRoute['/v2/pods/{id}/action'] ?? 0;

/** Every audit row, as the published database holds it. */
export async function auditRows(db: string): Promise<Record<string, string | null>[]> {
  const { openStore } = await import('../../src/store/database.ts');
  const store = await openStore({ path: db, readOnly: true });
  try {
    return await store.all(`select action_id, proposal_id, kind, undoes, rule, resource_id, resource_name, state_before, state_target, request, approved_by, outcome,
      outcome_detail, state_after, intended_at::varchar as intended_at, completed_at::varchar as completed_at from _meta_guardrail_actions order by intended_at, action_id`);
  } finally {
    await store.close();
  }
}

/** The proposal ids `guardrails plan` printed, in order. */
export const planIds = (stdout: string): string[] => [...stdout.matchAll(/^ {2}(g[0-9a-f]{10}) /gm)].map((m) => m[1]!);
