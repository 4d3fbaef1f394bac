// What a view is, in one line, for the people and tools that read the schema: `gpuledger views`, serve's /views page,
// the PostgreSQL mirror, and DuckDB's own catalog (COMMENT ON VIEW / COLUMN, which DBeaver and duckdb_views() show).
// The line is derived from the header comment every view file starts with (what one row is), so it is said once.

/** stg_* (typed inventory history) and int_* (building blocks) are internal: they may change in any release. */
export function isInternalView(name: string): boolean {
  return /^(stg|int)_/.test(name);
}

/** The first sentence of a header comment. */
export function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(text);
  return (m ? m[1]! : text).trim();
}

// a parenthesis that points into the repository or the API contract means nothing to a reader of the schema
const CITATION = /\s*\([^()]*?(?:\.md\b|\.sql\b|\.ts\b|§|\bGET \/|\/v2\/|\b_meta_\w*|\bint_\w+|\bstg_\w+|GraphQL [a-z]\w*)[^()]*\)/g;
const MAX = 150;

/** The header's first sentence without citations, cut at a clause boundary to at most 150 characters. */
export function oneLineDescription(header: string): string {
  const sentence = firstSentence(header).replace(CITATION, '').replace(/\s+/g, ' ').trim();
  if (sentence.length <= MAX) return sentence;
  const head = sentence.slice(0, MAX - 1);
  // the clause that says what one row is comes first: keep whole clauses, never half a parenthesis
  let cut = -1;
  let space = -1;
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const c = head[i]!;
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && c === ' ') {
      space = i;
      if (/[:;,]/.test(head[i - 1]!) || head.startsWith(' – ', i)) cut = /[:;,]/.test(head[i - 1]!) ? i - 1 : i;
    }
  }
  const end = cut >= 40 ? cut : space;
  return `${head.slice(0, end).replace(/[\s,;:–-]+$/, '')}…`;
}
