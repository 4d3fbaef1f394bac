// One declaration per billing source: the route the client calls, the raw table it lands in, and how the API's
// camelCase fields map onto the table's snake_case columns. Everything else in src/extract is generic over these.
import type { BillingSource } from '../config/sync.ts';

export interface BillingSourceDef {
  source: BillingSource;
  table: string;
  /** The record's id field in the API (podId…) and its column (pod_id…); null for one-record-per-bucket routes. */
  idField: string | null;
  idColumn: string | null;
  /** API amount fields in table order, totalAmount first. */
  amountFields: readonly string[];
  /** Inventory kind whose count estimates how many records one bucket holds (null: one record per bucket). */
  inventoryKind: string | null;
}

function snake(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export function amountColumn(field: string): string {
  return snake(field);
}

const defs: BillingSourceDef[] = [
  {
    source: 'aggregate',
    table: 'raw_billing_aggregate',
    idField: null,
    idColumn: null,
    amountFields: [
      'totalAmount', 'podGpuAmount', 'podCpuAmount', 'podDiskAmount', 'serverlessGpuAmount', 'serverlessCpuAmount',
      'serverlessDiskAmount', 'serverlessFeeAmount', 'storageStandardAmount', 'storageHighPerformanceAmount',
      'endpointAmount', 'clusterGpuAmount', 'clusterDiskAmount', 'clusterNetworkingAmount',
    ],
    inventoryKind: null,
  },
  {
    source: 'pods',
    table: 'raw_billing_pods',
    idField: 'podId',
    idColumn: 'pod_id',
    amountFields: ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount'],
    inventoryKind: 'pod',
  },
  {
    source: 'serverless',
    table: 'raw_billing_serverless',
    idField: 'serverlessId',
    idColumn: 'serverless_id',
    amountFields: ['totalAmount', 'gpuAmount', 'cpuAmount', 'diskAmount', 'feeAmount'],
    inventoryKind: 'endpoint',
  },
  {
    source: 'network-volumes',
    table: 'raw_billing_network_volumes',
    idField: 'networkVolumeId',
    idColumn: 'network_volume_id',
    amountFields: ['totalAmount', 'standardAmount', 'highPerformanceAmount'],
    inventoryKind: 'network_volume',
  },
  {
    source: 'endpoints',
    table: 'raw_billing_endpoints',
    idField: null,
    idColumn: null,
    amountFields: ['totalAmount'],
    inventoryKind: null,
  },
  {
    source: 'clusters',
    table: 'raw_billing_clusters',
    idField: 'clusterId',
    idColumn: 'cluster_id',
    amountFields: ['totalAmount', 'gpuAmount', 'diskAmount', 'networkingAmount'],
    inventoryKind: 'cluster',
  },
];

export const BILLING_SOURCE_DEFS: Readonly<Record<BillingSource, BillingSourceDef>> = Object.fromEntries(
  defs.map((d) => [d.source, d]),
) as Record<BillingSource, BillingSourceDef>;
