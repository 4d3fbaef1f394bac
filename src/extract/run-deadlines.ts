// The deadlines of one sync (issue 18 §5: no remote can hold a run hostage). Each request has its own deadlines and
// each host its breaker (src/api/deadlines.ts); on top, the whole run has a budget (config sync.budgetMinutes), after
// which the sync stops fetching exactly as it does on SIGINT – the request in flight is abandoned, what was read is
// loaded – and ends partial. A run a deadline ended is partial, never failed: nothing is wrong with the data or the
// configuration, and the next sync reads the rest.
import { HostBreakers } from '../api/index.ts';
import type { Logger } from '../util/log.ts';

export interface RunDeadlines {
  /** Aborted when the caller stops the sync (SIGINT/SIGTERM) or when the budget is spent. */
  readonly signal: AbortSignal;
  /** Breakers of the billing API's hosts, shared by every account's client. */
  readonly apiBreakers: HostBreakers;
  /** Breakers of the queue API's hosts: a slow /health must not give up the billing host. */
  readonly queueBreakers: HostBreakers;
  /** What ended the run early, for the summary: the budget, or hosts that stopped answering; undefined if nothing did. */
  ended(): string | undefined;
  /** Stop the budget's timer. */
  dispose(): void;
}

export function startRunDeadlines(options: { budgetMinutes: number; stop?: AbortSignal; log: Pick<Logger, 'warn'> }): RunDeadlines {
  const budget = new AbortController();
  let spent: string | undefined;
  const timer = setTimeout(() => {
    spent = `the sync's budget of ${options.budgetMinutes} min (sync.budgetMinutes) was spent: it stopped fetching and loaded what it had read; the next sync reads the rest`;
    options.log.warn(spent);
    budget.abort(new Error(spent));
  }, options.budgetMinutes * 60_000);
  // the budget never keeps a finished process alive
  timer.unref();
  const signal = options.stop ? AbortSignal.any([options.stop, budget.signal]) : budget.signal;
  const apiBreakers = new HostBreakers();
  const queueBreakers = new HostBreakers();
  return {
    signal,
    apiBreakers,
    queueBreakers,
    ended() {
      const hosts = apiBreakers.open();
      if (spent) return spent;
      if (hosts.length > 0) return `${hosts.join(', ')} stopped answering, so the sync ended early; the next sync reads the rest`;
      return undefined;
    },
    dispose: () => clearTimeout(timer),
  };
}
