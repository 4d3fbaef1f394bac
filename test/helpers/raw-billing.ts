// Raw billing rows inserted with SQL (range(), no per-row INSERT), so the real views (cost, cost_daily, rpt_*)
// have something to compute from: pods, Serverless, network volumes and public endpoints in day buckets, the
// aggregate route for reconciliation, and a watermark that sets report_clock's data horizon.
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/database.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { tempDir } from './temp-dir.ts';
import { tmpDbPath } from './view-store.ts';

export interface RawBillingOptions {
  account: string;
  /** First and last UTC day billed (inclusive). */
  from: string;
  to: string;
  pods: number;
  serverless?: number;
  volumes?: number;
  /** Data horizon: watermarks' loaded_through. */
  horizon: string;
  simulated?: boolean;
  /** Which pod components bill: all three (default) or only gpu (one cost row per pod and day). */
  podComponents?: 'all' | 'gpu';
  /** Also insert a current inventory version per pod (name, GPU type, data center), so rows carry names. */
  podInventory?: boolean;
}

export async function insertRawBilling(store: Store, o: RawBillingOptions): Promise<void> {
  const days = `(select unnest(generate_series(timestamptz '${o.from} 00:00:00+00', timestamptz '${o.to} 00:00:00+00', interval 1 day)) as start_time)`;
  const amount = (seed: string, scale: number) => `((hash(${seed}) % ${scale * 1_000_000}) / 1000000.0 + 0.000001)::decimal(18,6)`;
  await store.run(`
    insert into raw_billing_pods
    select '${o.account}', 'day', d.start_time, d.start_time + interval 1 day, 'pod-' || p.i,
           0, ${amount("d.start_time, p.i, 'g'", 40)},
           ${o.podComponents === 'gpu' ? '0.000000, 0.000000' : `${amount("d.start_time, p.i, 'c'", 3)}, ${amount("d.start_time, p.i, 'd'", 1)}`},
           'load-test', now()
    from ${days} d, range(${o.pods}) p(i)`);
  await store.run(`update raw_billing_pods set total_amount = gpu_amount + cpu_amount + disk_amount where account = '${o.account}'`);
  if (o.podInventory) {
    await store.run(`
      insert into raw_inventory
      select '${o.account}', 'pod', 'pod-' || p.i, '-infinity'::timestamptz, 'infinity'::timestamptz, now(), now(), null, md5(p.i::varchar),
             json_object('name', 'train-' || (p.i % 997) || '-' || p.i, 'status', 'RUNNING',
                         'gpu', json_object('id', ['NVIDIA A100 80GB PCIe', 'NVIDIA H100 80GB HBM3', 'NVIDIA RTX A6000'][p.i % 3 + 1], 'count', 1),
                         'dataCenterId', ['EU-RO-1', 'US-TX-3', 'CA-MTL-1'][p.i % 3 + 1], 'cloud', 'SECURE'),
             'load-test'
      from range(${o.pods}) p(i)`);
  }
  if (o.serverless) {
    await store.run(`
      insert into raw_billing_serverless
      select '${o.account}', 'day', d.start_time, d.start_time + interval 1 day, 'ep-' || s.i,
             0, ${amount("d.start_time, s.i, 'sg'", 30)}, 0.000000, ${amount("d.start_time, s.i, 'sd'", 1)}, 0.100000,
             'load-test', now()
      from ${days} d, range(${o.serverless}) s(i)`);
    await store.run(`update raw_billing_serverless set total_amount = gpu_amount + cpu_amount + disk_amount + fee_amount where account = '${o.account}'`);
  }
  if (o.volumes) {
    await store.run(`
      insert into raw_billing_network_volumes
      select '${o.account}', 'day', d.start_time, d.start_time + interval 1 day, 'vol-' || v.i,
             0, ${amount("d.start_time, v.i, 'vs'", 2)}, 0.000000, 'load-test', now()
      from ${days} d, range(${o.volumes}) v(i)`);
    await store.run(`update raw_billing_network_volumes set total_amount = standard_amount + high_performance_amount where account = '${o.account}'`);
  }
  // the aggregate route: the sum of the family routes per day (so reconciliation shows agreement)
  await store.run(`
    insert into raw_billing_aggregate
    with p as (select start_time, end_time, sum(gpu_amount) g, sum(cpu_amount) c, sum(disk_amount) d from raw_billing_pods where account = '${o.account}' group by all),
    s as (select start_time, sum(gpu_amount) g, sum(cpu_amount) c, sum(disk_amount) d, sum(fee_amount) f from raw_billing_serverless where account = '${o.account}' group by all),
    v as (select start_time, sum(standard_amount) st, sum(high_performance_amount) hp from raw_billing_network_volumes where account = '${o.account}' group by all)
    select '${o.account}', 'day', p.start_time, p.end_time,
           p.g + p.c + p.d + coalesce(s.g + s.c + s.d + s.f, 0) + coalesce(v.st + v.hp, 0),
           p.g, p.c, p.d, coalesce(s.g, 0), coalesce(s.c, 0), coalesce(s.d, 0), coalesce(s.f, 0),
           coalesce(v.st, 0), coalesce(v.hp, 0), 0, 0, 0, 0, 'load-test', now()
    from p left join s using (start_time) left join v using (start_time)`);
  for (const source of ['aggregate', 'pods', 'serverless', 'network-volumes']) {
    await store.run(
      `insert into _meta_watermarks values ($account, $source, 'day', timestamptz '${o.from} 00:00:00+00', $horizon::timestamptz, ($horizon::timestamptz - interval 2 day), now(), 'run-test')`,
      { account: o.account, source, horizon: o.horizon },
    );
  }
  await store.run(`insert into _meta_accounts (account, api_url, simulated, first_sync_at, last_sync_at) values ($account, 'http://127.0.0.1:8787', $simulated, now(), now())`, {
    account: o.account,
    simulated: o.simulated ?? false,
  });
  // as a writing session does before it publishes: readers read fct_cost_daily
  await refreshMaterialized(store);
}

/**
 * Two accounts – prod (live) and demo (simulated) – with pods, Serverless endpoints and network volumes billed every
 * day from 2026-09-01 to 2026-11-21, names from inventory, and a data horizon of 2026-11-21 06:00 UTC: the shipped
 * report definitions' test data, through the real views.
 */
export async function insertTwoAccounts(store: Store, podsPerAccount = 12): Promise<void> {
  for (const [account, simulated] of [['prod', false], ['demo', true]] as const) {
    await insertRawBilling(store, {
      account,
      from: '2026-09-01',
      to: '2026-11-21',
      pods: podsPerAccount,
      serverless: 4,
      volumes: 3,
      podInventory: true,
      horizon: '2026-11-21T06:00:00Z',
      simulated,
    });
  }
  // the invoice's route disagrees on one October day, by $1.23 of pod GPU: reconciliation has something to show
  await store.run(
    `update raw_billing_aggregate set total_amount = total_amount + 1.23, pod_gpu_amount = pod_gpu_amount + 1.23
     where account = 'prod' and start_time = timestamptz '2026-10-07 00:00:00+00'`,
  );
  await refreshMaterialized(store);
}

// Migrating a new file, inserting the two accounts and refreshing takes seconds; the rows are the same every time (fixed
// days, no clock), so the first caller in a worker builds them once and every store is a copy of that closed file
// (per worker: quick files share one, a slow file builds its own).
let twoAccounts: Promise<string> | undefined;

async function twoAccountsFile(): Promise<string> {
  twoAccounts ??= (async () => {
    const file = tmpDbPath('gpuledger-two-accounts-');
    const store = await openStore({ path: file });
    try {
      await insertTwoAccounts(store);
    } finally {
      await store.close();
    }
    return file;
  })().catch((e: unknown) => {
    twoAccounts = undefined;
    throw e;
  });
  return twoAccounts;
}

/** A new database in a temp folder holding the two accounts of insertTwoAccounts: what the report tests render from. */
export async function twoAccountStore(): Promise<{ dir: string; store: Store }> {
  const file = await twoAccountsFile();
  const dir = tempDir('gpuledger-report-').dir;
  const path = join(dir, 'gpuledger.duckdb');
  copyFileSync(file, path);
  if (existsSync(`${file}.wal`)) copyFileSync(`${file}.wal`, `${path}.wal`);
  return { dir, store: await openStore({ path }) };
}
