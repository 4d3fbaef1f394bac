// The public SQL interface (DESIGN.md): every view in sql/views except the internal stg_* and int_* ones, each with
// one line saying what one row is (src/transform/view-descriptions.ts – the same line DuckDB's catalog carries).
import { isInternalView, oneLineDescription } from '../transform/view-descriptions.ts';
import { listViewFiles } from '../transform/views.ts';

export { firstSentence } from '../transform/view-descriptions.ts';

const MACRO = /^\s*create\s+(or\s+replace\s+)?macro\b/im;

export interface PublicView {
  name: string;
  layer: string;
  description: string;
}

export interface ListedView extends PublicView {
  internal: boolean;
}

/** Every view: the public ones, then (with `all`) the internal ones – each group in layer and name order. */
export function listViews(options: { all?: boolean } = {}): ListedView[] {
  // a macro outside stg_*/int_* (a report-layer wrapper an alert calls) is no relation a person can select from and no
  // internal building block of the views either: it is left out
  const views = listViewFiles()
    .filter((v) => isInternalView(v.name) || !MACRO.test(v.sql))
    .map((v) => ({ name: v.name, layer: v.layer, description: oneLineDescription(v.description), internal: isInternalView(v.name) }));
  return [...views.filter((v) => !v.internal), ...(options.all ? views.filter((v) => v.internal) : [])];
}

export function listPublicViews(): PublicView[] {
  return listViews().map(({ name, layer, description }) => ({ name, layer, description }));
}
