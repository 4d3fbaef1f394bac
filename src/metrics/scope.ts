// A metric's scope: what part of an account's cost its value divides (issue 14). Empty is the whole account; the
// built-in kinds name cost_daily's own columns; any other kind must be an allocation category of the config, whose
// values come from cost_allocated. rpt_unit_cost matches the text the same way (int_scope_cost_daily.sql).

import { FAMILIES } from '../model/index.ts';

/** Built-in scope kinds → what their value may be (rendered in messages). */
export const BUILT_IN_SCOPE_KINDS = {
  family: `${FAMILIES.slice(0, -1).join(', ')} or ${FAMILIES.at(-1)}`,
  endpoint: 'a Serverless endpoint name or id',
  template: 'a template name or id',
  gpuType: 'a GPU type id or name',
};

export { FAMILIES };

export type ScopeCheck = { ok: true; scope: string } | { ok: false; problem: string };

/**
 * Check a scope as written in a metrics file against the built-in kinds and the configured allocation categories.
 * The stored scope is the text trimmed around the colon, so `endpoint: sdxl` and `endpoint:sdxl` are one scope.
 */
export function checkScope(raw: string, categories: readonly string[]): ScopeCheck {
  const text = raw.trim();
  if (text === '') return { ok: true, scope: '' };
  const colon = text.indexOf(':');
  const accepted = `'' (the whole account), ${Object.keys(BUILT_IN_SCOPE_KINDS).map((k) => `${k}:…`).join(', ')}` +
    (categories.length ? ` or an allocation category (${categories.map((c) => `${c}:…`).join(', ')})` : ' or <category>:<value> for a category in config allocation.categories');
  if (colon < 0) return { ok: false, problem: `'${text}' has no kind; expected ${accepted}` };
  const kind = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (!(kind in BUILT_IN_SCOPE_KINDS) && !categories.includes(kind)) {
    return { ok: false, problem: `unknown scope kind '${kind}'; expected ${accepted}` };
  }
  if (value === '') return { ok: false, problem: `'${text}' has no value after the colon` };
  if (kind === 'family' && !(FAMILIES as readonly string[]).includes(value)) {
    return { ok: false, problem: `unknown family '${value}'; expected ${BUILT_IN_SCOPE_KINDS.family}` };
  }
  return { ok: true, scope: `${kind}:${value}` };
}
