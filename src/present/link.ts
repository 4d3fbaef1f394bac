// A link as data: what it says and where it goes. Components write the <a>; no page builds one by hand, and none is
// added afterwards by rewriting rendered markup.
export interface Link {
  label: string;
  href: string;
}

/** A path with its query: only the parameters that have a value, in the order given. */
export function hrefWith(path: string, params: Record<string, string | readonly string[] | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of typeof value === 'string' ? [value] : (value ?? [])) if (v !== '') search.append(name, v);
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}
