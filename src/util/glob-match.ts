// The glob the config's patterns are written in (allocation rules, guardrail scopes): `*` any run of characters,
// `?` one character, everything else itself, case-sensitive – DuckDB's GLOB, which the allocation SQL applies, says
// the same. Matched by the two-pointer wildcard walk, never by a regular expression built from the pattern: a
// hostile pattern (thousands of `*`) costs at most length × length steps, never an exponential backtrack.

export function globMatch(pattern: string, text: string): boolean {
  const p = [...pattern];
  const t = [...text];
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < t.length) {
    if (i < p.length && (p[i] === '?' || (p[i] !== '*' && p[i] === t[j]))) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '*') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else {
      return false;
    }
  }
  while (i < p.length && p[i] === '*') i++;
  return i === p.length;
}

/** Whether any of the patterns matches any of the texts (a resource's id or its name). */
export function anyGlobMatches(patterns: readonly string[], texts: readonly (string | null | undefined)[]): boolean {
  return patterns.some((p) => texts.some((t) => typeof t === 'string' && globMatch(p, t)));
}
