// The demo's simulated account keeps its past between runs: the first run writes its anchor beside the database,
// later runs start the simulator from it, and an anchor too old for the simulated account (90 days) is renewed.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { demoAnchor, demoAnchorPath } from '../../src/run/demo-anchor.ts';
import { ConfigError } from '../../src/util/errors.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('gpuledger-anchor-').dir;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('demo anchor', () => {
  const db = join(dir, 'data', 'demo.duckdb');

  it('writes the first run time and gives it back to later runs', () => {
    const first = new Date('2026-11-20T12:34:56.789Z');
    expect(demoAnchor(db, first)).toEqual(first);
    expect(JSON.parse(readFileSync(demoAnchorPath(db), 'utf8'))).toEqual({ anchor: first.toISOString() });
    expect(demoAnchor(db, new Date('2026-12-05T01:00:00Z'))).toEqual(first);
  });

  it('starts a new account when the anchor is older than the simulated account lasts', () => {
    const late = new Date('2027-03-01T00:00:00Z');
    expect(demoAnchor(db, late)).toEqual(late);
    expect(demoAnchor(db, new Date('2027-03-02T00:00:00Z'))).toEqual(late);
  });

  it('refuses a damaged anchor file in one line saying what to do', () => {
    writeFileSync(demoAnchorPath(db), '{"anchor": "yesterday"}');
    expect(() => demoAnchor(db, new Date())).toThrow(ConfigError);
    expect(() => demoAnchor(db, new Date())).toThrow(/must be \{"anchor": "<RFC 3339 time>"\}; delete it/);
  });
});
