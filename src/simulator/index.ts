// The platform API simulator (DESIGN.md src/simulator/): a synthetic account served over the billing API v2
// contract (billing-api-v2.md) on loopback, with a ground-truth ledger for tests.
export { startSimulator, DEFAULT_KEY, DEFAULT_RESTRICTED_KEY, DEFAULT_READONLY_KEY, SimulatorListenError, type Simulator, type SimulatorOptions, type SimulatedAccount, type SimulatedAccountSpec } from './start.ts';
export type { SimulatorStats } from './http/server.ts';
export { parseFaultSpec, FAULT_SPEC_HELP, type FaultSpec } from './http/faults.ts';
export type { Quotas } from './http/rate-limit.ts';
export type { Ledger, LedgerSumQuery, LedgerRecord, LedgerRecordsOptions, Amounts } from './ledger/types.ts';
export { SOURCES, SOURCE_FIELDS, BILLING_SOURCES, type AmountField, type BillingSource, type SourceDef } from './ledger/sources.ts';
export { SCALES, type AccountCounts } from './account/account.ts';
export { GPU_CATALOG, GPU_POOLS, type CatalogGpu, type GpuPool } from './account/catalog.ts';
export type * from './account/types.ts';
export type { SimBalance, SimReload, BalanceSnapshot } from './ledger/balance.ts';
