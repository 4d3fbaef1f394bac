// What a describe block starts once before its tests and stops after them (a served database, a page in Chromium),
// said once: the block's tests read the fixture's fields, which are there from its beforeAll on.
import { afterAll, beforeAll } from 'vitest';

/**
 * Runs `start` in a beforeAll of the calling describe block and its `stop` in the afterAll; returns the object the
 * tests read (empty until beforeAll has run). A `start` that fails part-way undoes what it had started itself.
 */
export function suiteFixture<T extends { stop(): Promise<void> | void }>(start: () => Promise<T>, timeout = 120_000): T {
  const fixture = {} as T;
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
    Object.assign(fixture, started);
  }, timeout);
  afterAll(async () => {
    await started?.stop();
  });
  return fixture;
}
