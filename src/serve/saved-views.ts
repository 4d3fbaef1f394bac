// Saved views in serve (config `views`, issue 39 §2): each at /explore/<name> – the explorer page with the view's
// parameters in its form, its title and description above the figures (editing the form leads to /explore) – and
// listed at the foot of /explore, which the site's navigation reaches.
import type { Config } from '../config/schema.ts';
import { named, savedViewRequest, unknownViewText } from '../explore/saved-view.ts';
import { html, type Markup } from '../present/html.ts';
import type { Store } from '../store/database.ts';
import { explorePage } from './explore-page.ts';
import { PageError, type PageContext } from './pages.ts';

/** The path of a saved view's page. */
export const savedViewHref = (name: string) => `/explore/${encodeURIComponent(name)}`;

/** The saved views as links, each with its description; nothing when the config has none. */
export function savedViewsList(config: Config): Markup {
  if (config.views.length === 0) return html``;
  const items = config.views.map((v) => html`<li><a href="${savedViewHref(v.name)}">${v.title}</a>${v.description ? html` – ${v.description}` : ''} <span class="cue">${v.name}</span></li>`);
  return html`<section id="saved-views" aria-labelledby="saved-views-h"><h2 id="saved-views-h">Saved views</h2><ul class="saved-views">${items}</ul>
<p class="note">Saved in the config's <code>views</code>; <code>gpuledger report --view &lt;name&gt;</code> renders one as a workbook and a page.</p></section>`;
}

export async function savedViewPage(store: Store, ctx: PageContext, name: string): Promise<string> {
  const view = ctx.config.views.find((v) => v.name === name);
  if (!view) throw new PageError(404, unknownViewText(ctx.config, name));
  const request = await savedViewRequest(store, view);
  // a filter value in no row answers 400 in one line naming the view (config/views.ts checks it no earlier)
  return named(view, () =>
    explorePage(store, ctx, ctx.config, {
      named: { request, title: view.title, lines: [...(view.description ? [view.description] : []), `Saved view ${view.name} · change it below to explore from here`] },
      after: savedViewsList(ctx.config),
    }),
  );
}
