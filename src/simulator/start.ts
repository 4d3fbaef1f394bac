// startSimulator: the account, its ledger, the clock and the HTTP server, wired together on a loopback port. More
// accounts can be served side by side (`accounts`), each behind its own key and so with its own quota, as an
// organisation's team accounts are on the platform.
import type { AddressInfo } from 'node:net';
import { EXIT, GpuledgerError, UsageError } from '../util/errors.ts';
import { parseRfc3339 } from '../util/dates.ts';
import { createSyntheticAccount, type AccountCounts } from './account/account.ts';
import { withHostileNames } from './account/hostile-names.ts';
import type { Scale, SyntheticAccount } from './account/types.ts';
import { createSimClock } from './clock.ts';
import { createFaultInjector, type FaultSpec } from './http/faults.ts';
import { createRateLimiter, DEFAULT_QUOTAS, type Quotas } from './http/rate-limit.ts';
import { lifetimeQueueCounts, resetQueueCounters, type QueueCounts } from './http/queue-health.ts';
import { createSimulatorServer, type SimulatorStats, type Tenant } from './http/server.ts';
import { createSimBalance, DEFAULT_SPEND_LIMIT, type SimBalance } from './ledger/balance.ts';
import { createLedger } from './ledger/ledger.ts';
import type { Ledger } from './ledger/types.ts';
import { createScenario, type ScenarioLabels, type ScenarioRef } from './scenarios/index.ts';

export interface SimulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default 42. Same seed + same now + same request ⇒ byte-identical body. */
  seed?: number;
  /** Default small. */
  scale?: Scale;
  /** Override the scale's counts (each at least what the planted facts need). */
  counts?: Partial<AccountCounts>;
  /** The simulated now. Given ⇒ the clock is fixed there; absent ⇒ it runs with the wall clock. */
  now?: Date | string;
  /**
   * The moment the synthetic account is made as of (its history ends, its planted facts sit around it); default: the
   * initial now. The account – and so every past bill and top-up – depends on seed, scale, counts and anchor only:
   * a simulator started again later with the same anchor reports the same past, as the platform would.
   */
  anchor?: Date | string;
  /** Full-access keys; default ['sim-demo-key']. */
  keys?: string[];
  /** Valid keys that get 403 on billing routes (and on writes); default ['sim-restricted-key']. */
  restrictedKeys?: string[];
  /** Valid keys that read everything and get 403 on every write (pod actions, endpoint updates); default ['sim-readonly-key']. */
  readOnlyKeys?: string[];
  /** Requests per window and key; default 60/3000/50000. */
  quotas?: Partial<Quotas>;
  /** e.g. '5xx=0.1,reset=0.05,truncate=0.02,latency=200ms,drift=pods,429=0.1,graphql=down'. */
  faults?: string | FaultSpec;
  /** Default false: a dense grid (zeros included). */
  sparse?: boolean;
  /** GraphQL `myself` fields (or top-up fields: 'medium') this simulator does not know (e.g. ['stripeReloadHistory']): asking for one is an error. */
  unknownGraphqlFields?: string[];
  /** The hourly spend limit GraphQL reports; default $80/h. */
  spendLimit?: number;
  /** More accounts served beside the main one, each answering only to its own key (default: none). */
  accounts?: SimulatedAccountSpec[];
  /** The main account is post-paid (invoiced): its balance reads $0 or below and nothing is suspended (ledger/balance.ts). */
  postpaid?: boolean;
  /**
   * Serve a labelled scenario account (src/simulator/scenarios/) as the main account instead of the seed's ordinary
   * one; seed, scale, counts and anchor then do not shape it (the scenario is anchored at its own end), and without
   * `now` the clock is fixed at that end. Its labels are on `Simulator.scenario`, never in an answer.
   */
  scenario?: ScenarioRef;
  /**
   * Default false. True: every name (pods, endpoints, templates, network volumes, clusters, GPU display names) is a
   * hostile one – markup, formulas, bidi overrides, CR/LF, 40,000 characters (account/hostile-names.ts) –, the
   * figures unchanged.
   */
  hostileNames?: boolean;
}

/** One more simulated account: its key (full access) and what it is made of (default: the main account's scale). */
export interface SimulatedAccountSpec {
  key: string;
  seed: number;
  scale?: Scale;
  counts?: Partial<AccountCounts>;
  /** Post-paid (invoiced) rather than prepaid (ledger/balance.ts); default false. */
  postpaid?: boolean;
}

/** What tests read of one served account: its inventory, its ground-truth ledger and its balance. */
export interface SimulatedAccount {
  account: SyntheticAccount;
  ledger: Ledger;
  balance: SimBalance;
}

export interface Simulator {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  close(): Promise<void>;
  now(): Date;
  setNow(t: Date | string): void;
  advance(ms: number): void;
  setFaults(spec: string | FaultSpec | undefined): void;
  stats(): SimulatorStats;
  account: SyntheticAccount;
  ledger: Ledger;
  /** The queue API's job counters of a Serverless endpoint start again from 0 now (GET /v2/{id}/health). */
  resetQueueCounters(endpointId: string): void;
  /** The endpoint's lifetime job counts at now, ignoring resets: ground truth for tests. */
  queueCounts(endpointId: string): QueueCounts;
  /** The prepaid balance: top-ups minus what the ledger billed. */
  balance: SimBalance;
  /** The account a key of `accounts` reads (the main account for any other key). */
  accountOf(key: string): SimulatedAccount;
  /** The labels of the served scenario (options.scenario), for the judgement benchmark and tests. */
  scenario?: ScenarioLabels;
}

/** The simulator could not listen (port taken, address not local…). */
export class SimulatorListenError extends GpuledgerError {
  constructor(host: string, port: number, cause: NodeJS.ErrnoException) {
    const why = cause.code === 'EADDRINUSE' ? 'the address is already in use' : cause.message;
    super('simulator_listen', `the simulator cannot listen on ${host}:${port}: ${why} (choose another --port, or 0 for any free port)`, EXIT.failure, { cause });
  }
}

export const DEFAULT_KEY = 'sim-demo-key';
export const DEFAULT_RESTRICTED_KEY = 'sim-restricted-key';
export const DEFAULT_READONLY_KEY = 'sim-readonly-key';

function toMs(t: Date | string, what: string): number {
  const ms = (typeof t === 'string' ? parseRfc3339(t, what) : t).getTime();
  if (Number.isNaN(ms)) throw new UsageError(`${what} is not a valid date`);
  return ms;
}

function checkQuotas(q: Partial<Quotas>): Quotas {
  const quotas = { ...DEFAULT_QUOTAS, ...q };
  for (const [name, v] of Object.entries(quotas)) {
    if (!Number.isInteger(v) || v < 1) throw new UsageError(`quotas.${name} must be an integer ≥ 1, got ${v}`);
  }
  return quotas;
}

interface ServedAccount extends Tenant {
  balance: SimBalance;
}

function serveAccount(
  spec: ({ seed: number; scale: Scale; counts?: Partial<AccountCounts> } | { account: SyntheticAccount }) & { postpaid?: boolean },
  anchor: number,
  now: () => number,
  options: SimulatorOptions,
): ServedAccount {
  const made = 'account' in spec ? spec.account : createSyntheticAccount({ seed: spec.seed, scale: spec.scale, counts: spec.counts, initialNow: new Date(anchor) });
  // the hostile names replace the planted facts' names by id: a scenario account has none of them, so it keeps its own
  const account = options.hostileNames && !('account' in spec) ? withHostileNames(made) : made;
  const ledger = createLedger(account, now, options.sparse ?? false);
  const balance = createSimBalance(account, ledger, options.spendLimit ?? DEFAULT_SPEND_LIMIT, spec.postpaid ?? false);
  const graphql = { balance, hiddenFields: new Set(options.unknownGraphqlFields ?? []) };
  return { account, ledger, balance, queue: { offsets: new Map() }, graphql };
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const seed = options.seed ?? 42;
  if (!Number.isSafeInteger(seed)) throw new UsageError(`seed must be an integer, got ${seed}`);
  const scenario = options.scenario ? createScenario(options.scenario) : undefined;
  // a scenario without a now stands at its end, where its history is complete and its labels are all in the past
  const now = options.now ?? scenario?.labels.end;
  const fixed = now !== undefined;
  const initial = fixed ? toMs(now!, 'now') : Date.now();
  const anchor = options.anchor !== undefined ? toMs(options.anchor, 'anchor') : initial;
  const clock = createSimClock(initial, fixed);
  const scale = options.scale ?? 'small';
  const main = serveAccount(
    scenario ? { account: scenario.account, postpaid: options.postpaid ?? scenario.labels.postpaid } : { seed, scale, counts: options.counts, postpaid: options.postpaid },
    anchor,
    clock.now,
    options,
  );
  const keys = {
    full: new Set(options.keys ?? [DEFAULT_KEY]),
    restricted: new Set(options.restrictedKeys ?? [DEFAULT_RESTRICTED_KEY]),
    readOnly: new Set(options.readOnlyKeys ?? [DEFAULT_READONLY_KEY]),
  };
  const byKey = new Map<string, ServedAccount>();
  for (const spec of options.accounts ?? []) {
    if (!Number.isSafeInteger(spec.seed)) throw new UsageError(`a simulated account's seed must be an integer from 0 to 2^32-1, got ${spec.seed}`);
    if (keys.full.has(spec.key) || keys.restricted.has(spec.key) || keys.readOnly.has(spec.key) || byKey.has(spec.key)) {
      throw new UsageError('each simulated account needs a key of its own: one is given twice (or is also a --key/--restricted-key)');
    }
    byKey.set(spec.key, serveAccount({ seed: spec.seed, scale: spec.scale ?? scale, counts: spec.counts, postpaid: spec.postpaid }, anchor, clock.now, options));
    keys.full.add(spec.key);
  }
  const tenantOf = (key: string): ServedAccount => byKey.get(key) ?? main;
  const faults = createFaultInjector(seed, options.faults);
  const limiter = createRateLimiter(checkQuotas(options.quotas ?? {}));
  const { server, stats } = createSimulatorServer({ tenantOf, now: clock.now, keys, limiter, faults, sparse: options.sparse ?? false });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => reject(new SimulatorListenError(host, options.port ?? 0, e)));
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
    now: () => new Date(clock.now()),
    setNow: (t) => clock.setNow(toMs(t, 'setNow')),
    advance: (ms) => clock.advance(ms),
    setFaults: (spec) => faults.set(spec),
    stats,
    account: main.account,
    ledger: main.ledger,
    resetQueueCounters: (id) => resetQueueCounters(main.account, main.ledger, main.queue, id),
    queueCounts: (id) => lifetimeQueueCounts(main.account, main.ledger, id),
    balance: main.balance,
    accountOf: (key) => {
      const { account, ledger, balance } = tenantOf(key);
      return { account, ledger, balance };
    },
    ...(scenario ? { scenario: scenario.labels } : {}),
  };
}
