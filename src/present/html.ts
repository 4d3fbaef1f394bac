// The one way gpuledger writes HTML: a tagged template that escapes every interpolation. Names, messages and values
// come from the data, the config and the URL, so they are text unless the code says otherwise: a value is markup
// only when it is a Markup made by `html` itself or by `trustedMarkup` (for markup produced by a renderer we own,
// e.g. an SVG chart). Arrays are joined without separators; null, undefined and false render as nothing.

const MARK: unique symbol = Symbol('gpuledger.markup');

/** Markup that is already safe: produced by `html`, or explicitly trusted. */
export interface Markup {
  readonly [MARK]: true;
  readonly text: string;
  toString(): string;
}

function markup(text: string): Markup {
  return { [MARK]: true, text, toString: () => text };
}

export function isMarkup(value: unknown): value is Markup {
  return typeof value === 'object' && value !== null && (value as Partial<Markup>)[MARK] === true;
}

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: safe inside an element and inside a quoted attribute. */
export function escapeText(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ENTITIES[c]!);
}

/** What an interpolation may be. Objects other than Markup are refused: they would print "[object Object]". */
export type HtmlValue = Markup | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map((v: HtmlValue) => render(v)).join('');
  if (isMarkup(value)) return value.text;
  if (typeof value === 'object') throw new TypeError('html: an interpolation must be text, a number or markup');
  return escapeText(String(value));
}

/** html`<td>${name}</td>`: every interpolation escaped unless it is Markup. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Markup {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return markup(out);
}

/**
 * Markup the caller vouches for: output of a renderer we own (an SVG chart, an inline script or style shipped with
 * the build). Never pass text that holds data from the store, the config or a request.
 */
export function trustedMarkup(text: string): Markup {
  return markup(text);
}

/** Items joined by a separator (escaped like any interpolation unless it is Markup). */
export function joinHtml(items: readonly HtmlValue[], separator: HtmlValue = ''): Markup {
  const sep = render(separator);
  return markup(items.map((item) => render(item)).join(sep));
}
