// Which slices an export rewrites: those whose fingerprint differs from the last export's (or that are new), and those
// the last export wrote that DuckDB no longer has (removed). A day slice is one (account, day) of a day table; a whole
// table is one slice with neither.

export interface Slice {
  account: string | null;
  /** YYYY-MM-DD, or null for a whole table. */
  day: string | null;
  fingerprint: string;
  rows: number;
}

export function sliceKey(account: string | null, day: string | null): string {
  return account === null ? '' : `${account}\u0000${day}`;
}

export interface SliceDiff {
  write: Slice[];
  remove: Slice[];
}

export function diffSlices(current: ReadonlyMap<string, Slice>, previous: ReadonlyMap<string, Slice>): SliceDiff {
  const write = [...current.entries()].filter(([key, s]) => previous.get(key)?.fingerprint !== s.fingerprint).map(([, s]) => s);
  const remove = [...previous.entries()].filter(([key]) => !current.has(key)).map(([, s]) => s);
  return { write, remove };
}
