// A tenant: one simulated platform account, what a key sees. Several tenants share one server, each behind its own
// keys and – because the rate limiter counts per key – its own quota, as on the platform.
import type { SyntheticAccount } from '../account/types.ts';
import type { ExecuteOptions } from '../graphql/execute.ts';
import type { LedgerInternal } from '../ledger/types.ts';
import type { QueueState } from './queue-health.ts';

export interface Tenant {
  account: SyntheticAccount;
  ledger: LedgerInternal;
  /** The queue API's counter resets (queue-health.ts). */
  queue: QueueState;
  /** The balance GraphQL serves and the User fields it does not know. */
  graphql?: ExecuteOptions;
}
