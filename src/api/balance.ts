// The prepaid balance as gpuledger reads it, whatever answers it. Today only GraphQL does (routes/balance.ts);
// GraphQL is announced to retire in 2027 (balance-and-queue.md §1), so callers depend on this interface and a REST
// source can replace the GraphQL one without touching them. Money is a decimal string in USD, never a float.

export interface TopUp {
  /** USD, decimal string. */
  amount: string;
  /** RFC 3339, as the platform wrote it. */
  completedAt: string;
  /** RELOAD, CREDIT, DEBIT or PAYOUT. */
  type: string;
  /** How it was paid (e.g. CARD); null when the platform does not say. With completedAt and type, the top-up's identity. */
  medium: string | null;
}

export interface BalanceReading {
  /** Remaining prepaid credit, USD. */
  balance: string;
  /** The platform's current burn rate of everything running, USD/h. */
  spendPerHour: string;
  /** Hourly spend cap, USD/h. */
  spendLimit: string;
  underBalance: boolean | null;
  minBalance: string | null;
  /** The top-up history; null when the source does not offer it. */
  topUps: TopUp[] | null;
  /** Optional fields the source does not know (remembered for the client's life, never asked again). */
  missing: string[];
}

export interface BalanceSource {
  /** How messages and warnings name it, e.g. `GraphQL myself`. */
  readonly name: string;
  read(signal?: AbortSignal): Promise<BalanceReading>;
}
