// Time constants of the simulator (all times are epoch milliseconds, UTC).
export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** The platform bills per-GB-month storage by the hour over a 730-hour month (8760 h / 12). */
export const HOURS_PER_MONTH = 730;
/** The open bucket accrues in 5-minute steps: billing-api-v2.md §6 ("rolled up every 5 minutes"). */
export const ROLLUP_MS = 5 * MINUTE;

export const floorTo = (t: number, step: number): number => Math.floor(t / step) * step;
export const ceilTo = (t: number, step: number): number => Math.ceil(t / step) * step;
