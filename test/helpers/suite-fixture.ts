// What a describe block starts once before its tests and stops after them (a served database, a page in Chromium, a
// synced simulator account), said once: the block's tests read the fixture's fields from its beforeAll on.
import { afterAll, beforeAll } from 'vitest';

/** What a suite fixture ends after the block: its `stop`, or `close` for a part that has no stop (a server, a simulator). */
type Stoppable = { stop(): Promise<void> | void } | { close(): Promise<void> | void };

/**
 * Runs `start` in a beforeAll of the calling describe block and its `stop` (else `close`) in the afterAll. Returns a
 * stand-in for the started object: reading a field reads it and setting one sets it (a test may reopen a store the
 * fixture closes), so the block's tests can name it before it exists. A `start` that fails part-way undoes what it had started.
 */
export function suiteFixture<T extends Stoppable>(start: () => Promise<T>, timeout = 120_000): T {
  let started: T | undefined;
  const begun = (): T => {
    if (!started) throw new Error('a suite fixture is read before its beforeAll has run');
    return started;
  };
  beforeAll(async () => {
    started = await start();
  }, timeout);
  afterAll(async () => {
    if (started) await ('stop' in started ? started.stop() : started.close());
  });
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(begun(), key),
    set: (_, key, value) => Reflect.set(begun(), key, value),
  });
}
