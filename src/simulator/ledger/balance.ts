// The prepaid balance (balance-and-queue.md §1): top-ups (the reload history) minus everything billed up to the
// simulated now, as the ledger reports it. The top-ups follow an auto-pay policy decided from the final daily
// amounts, so their times and amounts never depend on the current now: at a day's start, a balance under three days
// of usual spend (the larger of the last week's average and the next two days) is reloaded with ten days of it
// (rounded up to $100).
//
// Planted low-balance moment: two days before the initial now's UTC day the card is "declined" for two weeks. One
// top-up, sized to the cent, leaves about a quarter of a day's spend at 10:00 UTC on that day (a runway of hours);
// a manual top-up follows at that moment.
//
// A post-paid (invoiced) account has no prepaid credit: its balance starts at $0.00 and goes negative by the usage not
// yet invoiced (the platform's post-paid billing page: "Post-paid accounts start at $0.00 and may go negative between
// invoice cycles … It does not … trigger any service interruption"), no top-ups (payment methods and auto-pay are not
// available), and nothing is ever stopped. Invoices are monthly (balance-and-queue.md §2), so here the balance is
// minus what was billed since the current UTC month began.
import type { SyntheticAccount } from '../account/types.ts';
import { formatRfc3339 } from '../../util/buckets.ts';
import { DAY, HOUR, floorTo } from '../time.ts';
import type { LedgerInternal } from './types.ts';

const MICROS = 1_000_000;
const STEP = 100 * MICROS;
/** The platform's default hourly spend limit (balance-and-queue.md §1). */
export const DEFAULT_SPEND_LIMIT = 80;

export interface SimReload {
  /** Micro-dollars (whole cents). */
  amountMicros: number;
  at: Date;
  type: 'RELOAD' | 'CREDIT';
}

export interface BalanceSnapshot {
  /** Exactly Σ visible top-ups − billed up to now, micro-dollars. */
  balanceMicros: number;
  spendPerHourMicros: number;
  spendLimit: number;
  /** Top-ups completed by now, newest first. */
  reloads: SimReload[];
}

export interface SimBalance {
  /** Every top-up of the account's whole span (also those after now), oldest first. */
  schedule(): readonly SimReload[];
  /** The planted moment: just before the manual top-up, with the balance then (final amounts). */
  lowPoint(): { at: Date; balanceMicros: number; topUpAt: Date } | null;
  at(now: number): BalanceSnapshot;
}

const roundUpTo = (x: number, step: number) => Math.max(step, Math.ceil(x / step) * step);

export function createSimBalance(account: SyntheticAccount, ledger: LedgerInternal, spendLimit = DEFAULT_SPEND_LIMIT, postpaid = false): SimBalance {
  if (postpaid) return createPostpaidBalance(account, ledger, spendLimit);
  let built: { reloads: SimReload[]; low: { at: Date; balanceMicros: number; topUpAt: Date } | null } | null = null;

  const build = () => {
    const hs = account.historyStart.getTime();
    const days = Math.round((account.horizonEnd.getTime() - hs) / DAY);
    const daily = Array.from({ length: days }, (_, d) => ledger.finalTotal(hs + d * DAY, hs + (d + 1) * DAY));
    const avg7 = (d: number) => {
      const from = Math.max(0, d - 7);
      const to = Math.max(from + 1, d);
      let s = 0;
      for (let i = from; i < to; i++) s += daily[i]!;
      return s / (to - from);
    };
    // the larger of last week's average and the next two days: a growing account is never caught short
    const usual = (d: number) => Math.max(avg7(d), daily[d]!, daily[d + 1] ?? 0);
    const p = Math.round((floorTo(account.initialNow.getTime(), DAY) - 2 * DAY - hs) / DAY);
    const lowAt = hs + p * DAY + 10 * HOUR;
    const target = 0.25 * (daily[p - 1] ?? 0);
    const reloads: SimReload[] = [{ amountMicros: roundUpTo(14 * Math.max(avg7(7), daily[0]!, daily[1]!), STEP), at: new Date(hs), type: 'RELOAD' }];
    let balance = reloads[0]!.amountMicros;
    let low: NonNullable<typeof built>['low'] = null;
    let declined = false;
    for (let d = 0; d < days; d++) {
      const t = hs + d * DAY;
      if (!declined && low === null && d >= p - 14 && d <= p) {
        // the last top-up before the card is declined: exactly enough to reach lowAt with `target` left
        const need = ledger.finalTotal(t, lowAt) + target;
        if (balance <= need) {
          const amount = Math.ceil((need - balance) / 10_000) * 10_000;
          if (amount > 0) reloads.push({ amountMicros: amount, at: new Date(t), type: 'RELOAD' });
          balance += amount;
          declined = true;
        }
      } else if (!declined && d > 0 && balance < 3 * usual(d)) {
        const amount = roundUpTo(10 * usual(d), STEP);
        reloads.push({ amountMicros: amount, at: new Date(t), type: 'RELOAD' });
        balance += amount;
      }
      if (declined && d === p) {
        low = { at: new Date(lowAt), balanceMicros: balance - ledger.finalTotal(t, lowAt), topUpAt: new Date(lowAt) };
        const amount = roundUpTo(10 * usual(d), STEP);
        reloads.push({ amountMicros: amount, at: new Date(lowAt), type: 'RELOAD' });
        balance += amount;
        declined = false;
      }
      balance -= daily[d]!;
    }
    return { reloads, low };
  };
  const get = () => (built ??= build());

  return {
    schedule: () => get().reloads,
    lowPoint: () => get().low,
    at(now) {
      const visible = get().reloads.filter((r) => r.at.getTime() <= now);
      const toppedUp = visible.reduce((s, r) => s + r.amountMicros, 0);
      const billed = Number(ledger.sum({ source: 'aggregate', start: account.historyStart, end: new Date(now) }).totalAmount);
      return {
        balanceMicros: toppedUp - billed,
        spendPerHourMicros: Math.round(ledger.spendRatePerHour(now)),
        spendLimit,
        reloads: visible.reverse(),
      };
    },
  };
}

function createPostpaidBalance(account: SyntheticAccount, ledger: LedgerInternal, spendLimit: number): SimBalance {
  return {
    schedule: () => [],
    lowPoint: () => null,
    at(now) {
      const cycle = new Date(now);
      const start = Math.max(account.historyStart.getTime(), Date.UTC(cycle.getUTCFullYear(), cycle.getUTCMonth(), 1));
      const billed = now > start ? Number(ledger.sum({ source: 'aggregate', start: new Date(start), end: new Date(now) }).totalAmount) : 0;
      return { balanceMicros: -billed, spendPerHourMicros: Math.round(ledger.spendRatePerHour(now)), spendLimit, reloads: [] };
    },
  };
}

/** The GraphQL `myself` balance fields of a snapshot, in USD as the platform answers them. */
export function balanceFields(s: BalanceSnapshot): Record<string, unknown> {
  const hour = s.spendPerHourMicros;
  return {
    clientBalance: s.balanceMicros / MICROS,
    currentSpendPerHr: hour / MICROS,
    spendLimit: s.spendLimit,
    // assumed meanings (the fields are undocumented): the one-hour deploy floor, and being under it
    minBalance: Math.ceil(hour / 10_000) / 100,
    underBalance: s.balanceMicros < hour,
    stripeReloadHistory: s.reloads.map((r) => ({
      amount: r.amountMicros / MICROS,
      transactionCompletedAt: formatRfc3339(r.at),
      type: r.type,
      medium: 'CARD',
    })),
  };
}
