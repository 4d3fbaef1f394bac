// Where things are in a gpuledger lake. One folder per table, Hive-partitioned inside – `cost/account=A/family=F/
// month=YYYY-MM/data.parquet` and the same under `cost_daily/` – because an engine's external table is one folder of
// one schema (Trino/Athena LOCATION, Spark's path, ClickHouse's glob) and the two tables differ in grain and columns;
// mixing them in one tree would invite double counting. The manifest, `_gpuledger_lake.json`, starts with `_` so
// Hive, Spark and Trino skip it as a hidden file.
import { join } from 'node:path';

export const MANIFEST_NAME = '_gpuledger_lake.json';

/** The lake's tables: each is the SQL file sql/export/lake_<name>.sql over the view of the same name. */
export const LAKE_TABLES = ['cost', 'cost_daily'] as const;
export type LakeTable = (typeof LAKE_TABLES)[number];

/** The partition keys, in path order; they are in the path, not in the files. */
export const PARTITION_KEYS = ['account', 'family', 'month'] as const;

export interface PartitionKey {
  table: LakeTable;
  account: string;
  family: string;
  month: string;
}

// account names are config names (config/accounts.ts), families and months are ours: none needs Hive escaping, and a
// value that would (a `/`, `=`, `%` or a leading dot) is refused rather than written somewhere unexpected
const SAFE_VALUE = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MONTH = /^\d{4}-\d{2}$/;

/** The partition's file, relative to the lake folder. */
export function partitionFile(key: PartitionKey): string {
  if (!SAFE_VALUE.test(key.account) || !SAFE_VALUE.test(key.family) || !MONTH.test(key.month)) {
    throw new Error(`lake partition ${JSON.stringify(key)} has a value that cannot be a folder name`);
  }
  return join(key.table, `account=${key.account}`, `family=${key.family}`, `month=${key.month}`, 'data.parquet');
}

/** A stable identity for a partition, for maps. */
export function partitionId(key: PartitionKey): string {
  return `${key.table}\u0000${key.account}\u0000${key.family}\u0000${key.month}`;
}
