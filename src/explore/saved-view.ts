// A saved view of the config (config/views.ts) as an explorer request: its keys written as /explore's URL parameters
// and parsed by the explorer's own parser, so /explore/<name>, `report --view <name>` and the link the view's page
// edits into answer the same request with the same figures. A refusal the data gives (a filter value that is in no
// row) is the explorer's one line, prefixed with the view's name.
import type { Config } from '../config/schema.ts';
import type { ViewConfig } from '../config/views.ts';
import type { Store } from '../store/database.ts';
import { UsageError } from '../util/errors.ts';
import { dataToday, exploreAnswer, type ExploreAnswer } from './run-explore.ts';
import { ExploreRequestError, parseExploreRequest, type ExploreRequest } from './request.ts';

/** A view name the config does not have: one line listing the ones it has. */
export class UnknownViewError extends UsageError {}

export function unknownViewText(config: Config, name: string): string {
  const known = config.views.map((v) => v.name);
  return `no saved view '${name}': ${known.length ? `the config's views are ${known.join(', ')}` : 'the config has no views (add them under "views")'}`;
}

export function findView(config: Config, name: string): ViewConfig {
  const view = config.views.find((v) => v.name === name);
  if (!view) throw new UnknownViewError(unknownViewText(config, name));
  return view;
}

/** The view's keys as /explore's URL parameters (the link its page's form edits from). */
export function savedViewParams(v: ViewConfig): URLSearchParams {
  const p = new URLSearchParams();
  if (typeof v.range === 'string') p.set('preset', v.range);
  else (p.set('from', v.range.from), p.set('to', v.range.to));
  p.set('granularity', v.granularity);
  for (const b of v.by) p.append('by', b);
  for (const f of v.filters) p.append('filter', `${f.exclude ? '-' : ''}${f.dimension}:${f.value}`);
  if (v.metric !== 'cost') p.set('metric', v.metric);
  return p;
}

/** `work`, its explorer refusal (a filter value in no row) prefixed with the view's name. */
export const named = <T>(v: ViewConfig, work: () => Promise<T>): Promise<T> =>
  work().catch((error: unknown) => {
    if (error instanceof ExploreRequestError) throw new ExploreRequestError(`view '${v.name}': ${error.message}`, { cause: error });
    throw error;
  });

/** The view's request against the data's current day (a preset counts back from it). */
export function savedViewRequest(store: Store, v: ViewConfig): Promise<ExploreRequest> {
  return named(v, async () => parseExploreRequest(savedViewParams(v), await dataToday(store)));
}

/** The view's answer: the explorer's figures, or the explorer's one-line refusal naming the view. */
export function savedViewAnswer(store: Store, config: Config, v: ViewConfig): Promise<ExploreAnswer> {
  return named(v, async () => exploreAnswer(store, config, await savedViewRequest(store, v)));
}
