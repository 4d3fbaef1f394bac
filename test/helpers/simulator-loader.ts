// Loads a simulator's ledger records and its inventory snapshot straight into the raw tables – the stand-in for
// `gpuledger sync` in the views' integration test and benchmark while the sync engine is being built. Billing
// records come from `sim.ledger.records` (the ground truth the API serves), inventory from the simulator's own
// HTTP routes, stored as one version each (valid from -infinity to infinity).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_KEY, type BillingSource, type Simulator } from '../../src/simulator/index.ts';
import type { Store } from '../../src/store/database.ts';
import { addBuckets, type BucketSize } from '../../src/util/buckets.ts';
import { microsToDecimalString } from '../../src/util/decimal.ts';
import { refreshMaterialized } from '../../src/transform/materialize.ts';
import { tempDir } from './temp-dir.ts';

const TABLES: Record<BillingSource, { table: string; id: string | null }> = {
  aggregate: { table: 'raw_billing_aggregate', id: null },
  pods: { table: 'raw_billing_pods', id: 'pod_id' },
  serverless: { table: 'raw_billing_serverless', id: 'serverless_id' },
  'network-volumes': { table: 'raw_billing_network_volumes', id: 'network_volume_id' },
  endpoints: { table: 'raw_billing_endpoints', id: null },
  clusters: { table: 'raw_billing_clusters', id: 'cluster_id' },
};

export interface LoadOptions {
  account?: string;
  sources?: readonly BillingSource[];
  bucketSizes: readonly BucketSize[];
  start: Date;
  end: Date;
  /** Buckets per ledger call (bounds memory on large accounts). */
  chunk?: number;
  sparse?: boolean;
  /** Also load the inventory snapshot (default true; once per account). */
  inventory?: boolean;
}

async function loadBilling(store: Store, sim: Simulator, source: BillingSource, size: BucketSize, o: LoadOptions, dir: string): Promise<void> {
  const { table, id } = TABLES[source];
  const fields = sim.ledger.fields(source);
  const cols = (await store.all<{ name: string }>(`select column_name as name from information_schema.columns where table_name = $1 order by ordinal_position`, [table]))
    .map((c) => c.name)
    .filter((c) => !c.startsWith('_'));
  const amountCols = cols.slice(id ? 5 : 4);
  for (let from = o.start; from < o.end; ) {
    const to = new Date(Math.min(addBuckets(from, size, o.chunk ?? 24 * 14).getTime(), o.end.getTime()));
    const records = sim.ledger.records(source, from, to, size, { sparse: o.sparse ?? true });
    const lines = records.map((r) =>
      [o.account ?? 'sim', size, r.startTime, r.endTime, ...(id ? [r.resourceId ?? ''] : []), ...fields.map((f) => microsToDecimalString((r.amounts as Record<string, bigint>)[f]!))].join('\t'),
    );
    if (lines.length > 0) {
      const file = join(dir, `${source}-${size}.tsv`);
      writeFileSync(file, lines.join('\n') + '\n');
      const names = ['account', 'bucket_size', 'start_time', 'end_time', ...(id ? [id] : []), ...amountCols];
      const casts = names.map((n, i) => {
        const c = `column${String(i).padStart(2, '0')}`;
        return n.endsWith('_time') ? `${c}::timestamptz` : n.endsWith('amount') ? `${c}::decimal(18,6)` : c;
      });
      await store.run(
        `insert into ${table} (${names.join(', ')}, _load_id, _extracted_at)
         select ${casts.join(', ')}, 'sim-load', now()
         from read_csv('${file}', delim = '\t', header = false, all_varchar = true, columns = {${names.map((_, i) => `'column${String(i).padStart(2, '0')}': 'varchar'`).join(', ')}})`,
      );
    }
    from = to;
  }
  await store.run(`insert or replace into _meta_watermarks values ($1, $2, $3, $4::timestamptz, $5::timestamptz, $5::timestamptz, now(), 'sim-load')`, [
    o.account ?? 'sim', source, size, o.start.toISOString(), o.end.toISOString(),
  ]);
}

const GRAPHQL = `query { myself { endpoints { id name gpuIds idleTimeout locations networkVolumeId scalerType scalerValue templateId workersMax workersMin } serverlessDiscount { discountFactor type expirationDate } } }`;

async function fetchJson(sim: Simulator, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${sim.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { authorization: `Bearer ${DEFAULT_KEY}`, 'content-type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

async function loadInventory(store: Store, sim: Simulator, account: string): Promise<void> {
  const lists: [string, string, string][] = [
    ['pod', '/v2/pods', 'pods'],
    ['endpoint', '/v2/serverless', 'endpoints'],
    ['template', '/v2/templates', 'templates'],
    ['network_volume', '/v2/network-volumes', 'networkVolumes'],
    ['gpu_type', '/v2/catalog/gpus', 'gpus'],
    ['cluster', '/v2/clusters', 'clusters'],
  ];
  const docs: { kind: string; id: string; doc: Record<string, unknown> }[] = [];
  for (const [kind, path, key] of lists) {
    for (const doc of (await fetchJson(sim, path))[key] as Record<string, unknown>[]) docs.push({ kind, id: String(doc.id), doc });
  }
  const gql = (await fetchJson(sim, '/graphql', { query: GRAPHQL })) as { data: { myself: { endpoints: Record<string, unknown>[]; serverlessDiscount: Record<string, unknown> | null } } };
  for (const doc of gql.data.myself.endpoints) docs.push({ kind: 'graphql_endpoint', id: String(doc.id), doc });
  if (gql.data.myself.serverlessDiscount) docs.push({ kind: 'serverless_discount', id: 'serverless', doc: gql.data.myself.serverlessDiscount });
  for (const d of docs) {
    const { env: _env, ...doc } = d.doc; // env can hold users' secrets: never stored (001_init.sql)
    await store.run(`insert into raw_inventory values ($1, $2, $3, '-infinity', 'infinity', now(), now(), null, 'sim', $4::json, 'sim-load')`, [
      account, d.kind, d.id, JSON.stringify(doc),
    ]);
  }
}

export async function loadSimulator(store: Store, sim: Simulator, o: LoadOptions): Promise<void> {
  const dir = tempDir('gpuledger-simload-').dir;
  try {
    for (const source of o.sources ?? (['aggregate', 'pods', 'serverless', 'network-volumes', 'endpoints', 'clusters'] as const)) {
      for (const size of o.bucketSizes) await loadBilling(store, sim, source, size, o, dir);
    }
    if (o.inventory ?? true) await loadInventory(store, sim, o.account ?? 'sim');
    // as a writing session does before it publishes: readers read fct_cost_daily
    await refreshMaterialized(store);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
