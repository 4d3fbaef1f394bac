// Inventory as history. Each sync reads every inventory list (and the deprecated GraphQL endpoint list, the only
// source of endpoint → template links and the Serverless discount) and merges it into raw_inventory as versions:
// an unchanged object only has its last_seen_at moved, a changed one gets a new version from now on, a new one
// starts at -infinity (its bills may predate the first read), a vanished one is marked deleted but keeps its last
// version open-ended, so old bills keep their names. `env` is dropped before anything is stored: it holds users'
// secrets.
import { createHash, randomUUID } from 'node:crypto';
import { quotedString } from '../util/duckdb-api.ts';
import type { ApiClient, InventoryKind } from '../api/index.ts';
import { INVENTORY_LISTS } from '../model/index.ts';
import type { Store } from '../store/database.ts';
import { errorMessage } from '../util/errors.ts';
import type { Logger } from '../util/log.ts';
import { moveInventoryWatermark } from './watermarks.ts';

/** REST list → the kind stored in raw_inventory (the stg_* views read these names), from the documents' declarations. */
export const INVENTORY_KINDS: ReadonlyArray<{ list: InventoryKind; kind: string }> = INVENTORY_LISTS.map((l) => ({ list: l.name, kind: l.kind }));

export interface InventoryDoc {
  kind: string;
  id: string;
  doc: unknown;
}

export interface InventoryResult {
  /** Objects read per kind. */
  counts: Record<string, number>;
  /** Kinds whose list could not be read (a REST failure fails the inventory source; GraphQL only warns). */
  failed: Array<{ kind: string; error: unknown }>;
  warnings: string[];
  versionsAdded: number;
  deleted: number;
}

/** The object without any `env` key at any depth. */
export function withoutEnv(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEnv);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== 'env') out[k] = withoutEnv(v);
    return out;
  }
  return value;
}

/** JSON with sorted keys, so the same object always hashes the same whatever order the API sent. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Read every inventory list; failures are collected per kind, never thrown. */
export async function fetchInventory(client: ApiClient, log: Logger): Promise<{ docs: InventoryDoc[]; okKinds: string[]; failed: InventoryResult['failed']; warnings: string[] }> {
  const docs: InventoryDoc[] = [];
  const okKinds: string[] = [];
  const failed: InventoryResult['failed'] = [];
  const warnings: string[] = [];
  for (const { list, kind } of INVENTORY_KINDS) {
    try {
      for (const item of await client.inventory(list)) docs.push({ kind, id: String(item.id), doc: withoutEnv(item) });
      okKinds.push(kind);
    } catch (e) {
      failed.push({ kind, error: e });
    }
  }
  try {
    const gql = await client.graphqlEndpoints();
    for (const item of gql.endpoints) docs.push({ kind: 'graphql_endpoint', id: String(item.id), doc: withoutEnv(item) });
    if (gql.serverlessDiscount) docs.push({ kind: 'serverless_discount', id: 'serverless', doc: gql.serverlessDiscount });
    okKinds.push('graphql_endpoint', 'serverless_discount');
  } catch (e) {
    // GraphQL is deprecated and may stop answering: endpoints lose their template link, nothing else breaks
    const message = `GraphQL endpoint list unavailable (${errorMessage(e)}); Serverless endpoints keep their last known template links`;
    warnings.push(message);
    log.warn(message);
  }
  return { docs, okKinds, failed, warnings };
}

/** Merge one read of the inventory into raw_inventory, in one transaction. */
export async function loadInventory(
  store: Store,
  runId: string,
  account: string,
  now: Date,
  read: Awaited<ReturnType<typeof fetchInventory>>,
): Promise<InventoryResult> {
  const loadId = randomUUID();
  const counts: Record<string, number> = {};
  for (const d of read.docs) counts[d.kind] = (counts[d.kind] ?? 0) + 1;
  await store.run(`create temp table if not exists stage_inventory (kind varchar, id varchar, content_hash varchar, doc varchar)`);
  await store.run(`delete from stage_inventory`);
  const appender = await store.connection.createAppender('stage_inventory', 'main', 'temp');
  try {
    for (const d of read.docs) {
      const json = canonicalJson(d.doc);
      appender.appendVarchar(d.kind);
      appender.appendVarchar(d.id);
      appender.appendVarchar(createHash('sha256').update(json).digest('hex').slice(0, 32));
      appender.appendVarchar(json);
      appender.endRow();
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  const p = { account, now: now.toISOString() };
  const kinds = read.okKinds.map(quotedString).join(', ') || `''`;
  return store.transaction(async () => {
    await store.run(
      `update raw_inventory r set last_seen_at = $now::timestamptz, deleted_at = null
       from stage_inventory s
       where r.account = $account and r.kind = s.kind and r.id = s.id and r.valid_to = 'infinity' and r.content_hash = s.content_hash`,
      p,
    );
    await store.run(
      `update raw_inventory r set valid_to = $now::timestamptz
       from stage_inventory s
       where r.account = $account and r.kind = s.kind and r.id = s.id and r.valid_to = 'infinity' and r.content_hash <> s.content_hash`,
      p,
    );
    const added = await store.all(
      `insert into raw_inventory
       select $account, s.kind, s.id,
              case when exists (select 1 from raw_inventory r where r.account = $account and r.kind = s.kind and r.id = s.id)
                   then $now::timestamptz else '-infinity'::timestamptz end,
              'infinity'::timestamptz, $now::timestamptz, $now::timestamptz, null, s.content_hash, s.doc::json, $load
       from stage_inventory s
       where not exists (select 1 from raw_inventory r
                         where r.account = $account and r.kind = s.kind and r.id = s.id and r.valid_to = 'infinity')
       returning id`,
      { ...p, load: loadId },
    );
    const deleted = await store.all(
      `update raw_inventory r set deleted_at = $now::timestamptz
       where r.account = $account and r.valid_to = 'infinity' and r.deleted_at is null and r.kind in (${kinds})
         and not exists (select 1 from stage_inventory s where s.kind = r.kind and s.id = r.id)
       returning id`,
      p,
    );
    await store.run(
      `insert into _meta_loads values ($load, $run, $account, 'inventory', null, null, $now::timestamptz, $records, null, null, now())`,
      { ...p, load: loadId, run: runId, records: read.docs.length },
    );
    if (read.failed.length === 0) {
      // the inventory is as fresh as this read only when every list answered
      await moveInventoryWatermark(store, account, now, runId);
    }
    return { counts, failed: read.failed, warnings: read.warnings, versionsAdded: added.length, deleted: deleted.length };
  });
}
