// Where a zod issue is, as messages say it: `schedule.jobs.2.cron`. List positions count from 1, as every other
// message names rules, splits, sheets and lines.

export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? String(p + 1) : String(p))).join('.');
}
