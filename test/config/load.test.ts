import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/load.ts';
import { tempDir } from '../helpers/temp-dir.ts';

function dirWith(config: unknown): string {
  const dir = tempDir('gpuledger-config-').dir;
  writeFileSync(join(dir, 'gpuledger.config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

describe('config loading', () => {
  it('applies defaults when there is no config file', () => {
    const dir = tempDir('gpuledger-config-').dir;
    const s = resolveSettings({}, {}, dir);
    expect(s.configPath).toBeUndefined();
    expect(s.dbPath).toBe(join(dir, 'data/gpuledger.duckdb'));
    expect(s.apiUrl).toBe('https://api.runpod.io');
    expect(s.config.accounts).toEqual([{ name: 'default', apiKeyEnv: 'RUNPOD_API_KEY' }]);
    expect(s.config.sync.bucketSizes.pods).toEqual([{ size: 'day' }, { size: 'hour', lastDays: 14 }]);
  });

  it('lets flags beat env and env beat the file', () => {
    const dir = dirWith({ database: 'from-file.duckdb', apiUrl: 'http://file.example' });
    expect(resolveSettings({}, {}, dir).dbPath).toBe(join(dir, 'from-file.duckdb'));
    expect(resolveSettings({}, { GPULEDGER_DB: 'env.duckdb' }, dir).dbPath).toBe(join(dir, 'env.duckdb'));
    expect(resolveSettings({ db: 'flag.duckdb' }, { GPULEDGER_DB: 'env.duckdb' }, dir).dbPath).toBe(join(dir, 'flag.duckdb'));
    expect(resolveSettings({}, { GPULEDGER_API_URL: 'http://127.0.0.1:9/' }, dir).apiUrl).toBe('http://127.0.0.1:9');
  });

  it('refuses a sync start on a day the calendar lacks, as the flags do (Date would roll 2026-02-30 into March)', () => {
    const dir = dirWith({ sync: { start: '2026-02-30T00:00:00Z' } });
    expect(() => resolveSettings({}, {}, dir)).toThrow(
      "sync.start: sync.start must be an RFC 3339 date-time such as 2026-10-01T00:00:00Z, got '2026-02-30T00:00:00Z': February 2026 has 28 days (or a duration back from now like P90D)",
    );
    expect(resolveSettings({}, {}, dirWith({ sync: { start: '2026-02-28T00:00:00Z' } })).config.sync.start).toBe('2026-02-28T00:00:00Z');
    expect(resolveSettings({}, {}, dirWith({ sync: { start: 'P30D' } })).config.sync.start).toBe('P30D');
  });

  it('names the file, the key path and what is accepted', () => {
    const dir = dirWith({ sync: { lookbackBuckets: -1 } });
    expect(() => resolveSettings({}, {}, dir)).toThrow(/gpuledger\.config\.json: sync\.lookbackBuckets: .*>=0/);
    const dir2 = dirWith({ timeZone: 'Mars/Olympus' });
    expect(() => resolveSettings({}, {}, dir2)).toThrow(/timeZone: an IANA time zone/);
    const dir3 = dirWith({ unknownKey: 1 });
    expect(() => resolveSettings({}, {}, dir3)).toThrow(/unknownKey/);
  });

  it('refuses reports.email.zipAboveMb, saying why it went (an .xlsx is already a zip) and what to do', () => {
    const dir = dirWith({ reports: { email: { zipAboveMb: 8 } } });
    expect(() => resolveSettings({}, {}, dir)).toThrow(
      /gpuledger\.config\.json: reports\.email\.zipAboveMb: is no longer supported: an \.xlsx is already a zip.*remove the key$/,
    );
  });

  it('refuses a file that is not JSON, and an explicit config that does not exist', () => {
    const dir = dirWith('{ nope');
    expect(() => resolveSettings({}, {}, dir)).toThrow(/not valid JSON/);
    expect(() => resolveSettings({ config: 'missing.json' }, {}, dir)).toThrow('config missing.json: no such file');
  });
});
