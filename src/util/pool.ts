// Bounded concurrency without a library: `limit` workers take the next item until none is left. Results keep the
// items' order, so whatever is reported from them reads the same however the work interleaved.

/** Runs `work` over `items`, at most `limit` at a time; resolves to the results in the items' order. A rejection
 * rejects the whole (after the workers in flight settle), so `work` should catch what it can answer for itself. */
export async function forEachConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`the concurrency limit must be an integer ≥ 1, got ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (next < items.length && !failure) {
      const i = next++;
      try {
        results[i] = await work(items[i]!, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
  return results;
}
