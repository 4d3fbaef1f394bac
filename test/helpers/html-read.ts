// Reading an HTML report back the way the page script does: each section's data table, its field names, its rows'
// exact values (data-v) and its totals row. The page is ours and regular, so a few patterns read it.
const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!);

export interface HtmlTableRead {
  fields: string[];
  headers: string[];
  rows: string[][];
  /** data-v of the totals row's cells ('' where none), when there is one. */
  totals: string[] | undefined;
  note: string | undefined;
}

export function readHtmlTables(html: string): Map<string, HtmlTableRead> {
  const out = new Map<string, HtmlTableRead>();
  for (const [, id, body] of html.matchAll(/<section id="([^"]+)"[^>]*>([\s\S]*?)<\/section>/g)) {
    // table sections only: the summary's small tables have no filter
    const table = /data-filter-table/.test(body!) ? /<table class="data[^"]*">([\s\S]*?)<\/table>/.exec(body!)?.[1] : undefined;
    if (!table) continue;
    const fields = [...table.matchAll(/<th scope="col" data-field="([^"]*)"/g)].map((m) => unescape(m[1]!));
    const headers = [...table.matchAll(/<th scope="col"[^>]*><button type="button">([^<]*)<\/button>/g)].map((m) => unescape(m[1]!));
    const totalsRow = /<tr class="totals">([\s\S]*?)<\/tr>/.exec(table)?.[1];
    const totals = totalsRow ? [...totalsRow.matchAll(/<th([^>]*)>/g)].map((m) => unescape(/data-v="([^"]*)"/.exec(m[1]!)?.[1] ?? '')) : undefined;
    const tbody = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
    const rows = [...tbody.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td[^>]*data-v="([^"]*)"/g)].map((m) => unescape(m[1]!)));
    const note = /<p class="note">([^<]*)<\/p>/.exec(body!)?.[1];
    out.set(id!, { fields, headers, rows, totals, note: note === undefined ? undefined : unescape(note) });
  }
  return out;
}
