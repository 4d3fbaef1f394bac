// The shape of a billing source's one declaration. Everything that used to repeat a source's fields – the zod schema
// of its answer, the loader's column list, the config's source list and defaults, the CLI help – is derived from
// these, and test/model/billing-sources.test.ts checks them against the migrated raw tables and the simulator.
import type { BucketSize } from '../../util/buckets.ts';
import type { CostComponent, CostFamily } from '../cost-families.ts';

/** A bucket size to extract, optionally only for the last N days (the config's sync.bucketSizes entries). */
export interface DefaultBucketPlan {
  size: BucketSize;
  lastDays?: number;
}

/** Where an amount field's money goes in `cost`: [family, component]; null for totalAmount, the sum of the others. */
export type AmountTarget = readonly [CostFamily, CostComponent] | null;

export interface BillingSourceSpec<S extends string = string> {
  /** The name users pass to `sync --source` and the config's `sync.sources`. */
  source: S;
  /** What one record is, for the header of its billing_* view: "One row per pod and bucket". */
  rowIs: string;
  /** The route (billing-api-v2.md §2). */
  path: string;
  /** Earlier spellings of the route, tried in order after a 404 (e.g. /v2/billing/networkvolumes until August 2026). */
  oldPaths?: readonly string[];
  /** The record's id field (podId…); null for one-record-per-bucket routes. */
  idField: string | null;
  /** metadata.unique*Count: how many resources the answer covers (null for id-less routes). */
  uniqueCountKey: string | null;
  /** raw_inventory.kind whose count estimates how many records one bucket holds (null: one record per bucket). */
  inventoryKind: string | null;
  /** Amount fields in API order, totalAmount first, each with the cost family and component it becomes. */
  amounts: Readonly<Record<string, AmountTarget>>;
  /** Bucket sizes a default config extracts. */
  defaultBucketSizes: readonly DefaultBucketPlan[];
}

export interface AmountDef {
  field: string;
  column: string;
  target: AmountTarget;
}

export interface BillingSourceDef<S extends string = string> extends Omit<BillingSourceSpec<S>, 'amounts' | 'oldPaths'> {
  oldPaths: readonly string[];
  /** The one family a family route bills (null for the aggregate route, which bills every family side by side). */
  family: CostFamily | null;
  /** The raw table it lands in: raw_billing_<source in snake case>. */
  table: string;
  idColumn: string | null;
  /** API amount fields in table order, totalAmount first. */
  amountFields: readonly string[];
  amounts: readonly AmountDef[];
  /** Every column of the raw table, in order: the API's shape plus the load columns (STYLE.md §4). */
  columns: readonly string[];
}

export function snakeCase(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/-/g, '_');
}

export function defineBillingSource<S extends string>(spec: BillingSourceSpec<S>): BillingSourceDef<S> {
  const amounts = Object.entries(spec.amounts).map(([field, target]) => ({ field, column: snakeCase(field), target }));
  if (amounts[0]?.field !== 'totalAmount') throw new Error(`billing source ${spec.source}: totalAmount must be the first amount field`);
  const families = [...new Set(amounts.flatMap((a) => (a.target ? [a.target[0]] : [])))];
  const idColumn = spec.idField === null ? null : snakeCase(spec.idField);
  return {
    ...spec,
    oldPaths: spec.oldPaths ?? [],
    family: families.length === 1 ? families[0]! : null,
    table: `raw_billing_${snakeCase(spec.source)}`,
    idColumn,
    amountFields: amounts.map((a) => a.field),
    amounts,
    columns: [
      'account', 'bucket_size', 'start_time', 'end_time',
      ...(idColumn ? [idColumn] : []),
      ...amounts.map((a) => a.column),
      '_load_id', '_extracted_at',
    ],
  };
}
