// The heading of every sheet and every section: its title, the lines under it (period, data as of) and the accounts
// that are simulated – read once in the report session, drawn by the workbook (workbook/sheet-heading.ts) and the page.
export interface Heading {
  title: string;
  lines: readonly string[];
  /** Simulated accounts in the report (empty: no banner). */
  simulatedAccounts: readonly string[];
}
