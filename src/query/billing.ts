// `gpuledger billing pods|serverless|network-volume`: the platform CLI's views answered from the store – one record
// per bucket and group, {time, amount, podId|endpointId|gpuId}, amounts summed exactly (DECIMAL). Grouping by GPU type
// goes through the inventory join in `cost`; unlike the platform CLI, high-performance storage is included.
import type { Store } from '../store/database.ts';
import { addBuckets, ceilToBucket, floorToBucket, type BucketSize } from '../util/buckets.ts';
import { UsageError } from '../util/errors.ts';
import { BILLING_SPECS, COST_COLUMN, type BillingFilter, type BillingKind, type Grouping } from './billing-kinds.ts';

export interface BillingRequest {
  kind: BillingKind;
  bucketSize: BucketSize;
  start?: Date;
  end?: Date;
  grouping?: string;
  filters: Partial<Record<BillingFilter, string>>;
  account?: string;
}

export interface BillingRecord {
  time: string;
  amount: string;
  id?: string | null;
}

export interface BillingResult {
  /** The record's id field (podId, endpointId, gpuId), or null for network volumes. */
  idField: Grouping | null;
  start: Date;
  end: Date;
  records: BillingRecord[];
}

export function resolveGrouping(kind: BillingKind, grouping: string | undefined): Grouping | null {
  const spec = BILLING_SPECS[kind];
  if (grouping === undefined) return spec.defaultGrouping;
  const reason = spec.unsupported[grouping as Grouping];
  if (reason) throw new UsageError(`billing ${kind} cannot group by ${grouping}: ${reason}`);
  if (!(spec.groupings as readonly string[]).includes(grouping)) {
    const accepted = spec.groupings.length ? `accepted: ${spec.groupings.join(', ')}` : 'it takes no --grouping';
    throw new UsageError(`--grouping '${grouping}' does not apply to billing ${kind} (${accepted})`);
  }
  return grouping as Grouping;
}

/** Refuses a bucket size that was never synced, naming the sync command that fetches it. */
async function assertSynced(store: Store, kind: BillingKind, size: BucketSize): Promise<void> {
  const spec = BILLING_SPECS[kind];
  const found = await store.one(
    `select 1 as found from _meta_watermarks where source = $source and bucket_size = $size
     union all
     select 1 from cost where family = $family and bucket_size = $size
     limit 1`,
    { source: spec.source, size, family: spec.family },
  );
  if (!found) {
    throw new UsageError(
      `no ${spec.source} billing at bucket size '${size}' in the database; fetch it with: gpuledger sync --source ${spec.source} --bucket-size ${size}`,
    );
  }
}

/** The default window: the 30 days before the data horizon of this source (like the API's now − 30 days). */
async function dataHorizon(store: Store, kind: BillingKind, size: BucketSize): Promise<Date> {
  const spec = BILLING_SPECS[kind];
  const row = await store.one<{ horizon: string | null }>(
    `select coalesce(
        (select max(loaded_through) from _meta_watermarks where source = $source and bucket_size = $size),
        (select max(bucket_end) from cost where family = $family and bucket_size = $size)
     )::varchar as horizon`,
    { source: spec.source, size, family: spec.family },
  );
  return row?.horizon ? new Date(row.horizon.replace(' ', 'T').replace(/\+00$/, 'Z')) : new Date();
}

export async function queryBilling(store: Store, req: BillingRequest): Promise<BillingResult> {
  const spec = BILLING_SPECS[req.kind];
  const grouping = resolveGrouping(req.kind, req.grouping);
  for (const [name, value] of Object.entries(req.filters)) {
    if (value !== undefined && !(spec.filters as readonly string[]).includes(name)) {
      const flag = `--${name.replace(/Id$/, '')}-id`;
      const accepted = spec.filters.length ? spec.filters.map((f) => `--${f.replace(/Id$/, '')}-id`).join(', ') : 'none';
      throw new UsageError(`${flag} does not apply to billing ${req.kind} (filters accepted: ${accepted})`);
    }
  }
  await assertSynced(store, req.kind, req.bucketSize);
  // the API's window rules (billing-api-v2.md §2): start snapped down, the exclusive end snapped up
  const endRaw = req.end ?? (await dataHorizon(store, req.kind, req.bucketSize));
  const startRaw = req.start ?? addBuckets(endRaw, 'day', -30);
  const start = floorToBucket(startRaw, req.bucketSize);
  const end = ceilToBucket(endRaw, req.bucketSize);
  if (end <= start) throw new UsageError(`--end-time must be after --start-time`);
  if (addBuckets(start, req.bucketSize, 100_000) < end) throw new UsageError('the window spans more than 100,000 buckets; narrow it or use a larger --bucket-size');

  const where = ['family = $family', 'bucket_size = $size', 'bucket_start >= $start::timestamptz', 'bucket_start < $end::timestamptz'];
  const params: Record<string, string> = { family: spec.family, size: req.bucketSize, start: start.toISOString(), end: end.toISOString() };
  for (const [name, value] of Object.entries(req.filters)) {
    if (value === undefined) continue;
    where.push(`${COST_COLUMN[name as Grouping]} = $${name}`);
    params[name] = value;
  }
  if (req.account) {
    where.push('account = $account');
    params.account = req.account;
  }
  const idExpr = grouping ? COST_COLUMN[grouping] : 'null::varchar';
  const rows = await store.all<{ time: string; id: string | null; amount: string }>(
    `select
        strftime(timezone('UTC', bucket_start), '%Y-%m-%dT%H:%M:%SZ') as time,
        ${idExpr} as id,
        sum(amount)::decimal(38,6)::varchar as amount,
     from cost
     where ${where.join(' and ')}
     group by all
     order by time, id nulls last`,
    params,
  );
  return {
    idField: grouping,
    start,
    end,
    records: rows.map((r) => (grouping ? { time: r.time, amount: r.amount, id: r.id } : { time: r.time, amount: r.amount })),
  };
}
