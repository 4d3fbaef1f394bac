// The restated database (restated-database.ts) behind `gpuledger serve`, with one allocation category (team: pod-r is
// research, the rest other) and no answer cache, so every request reads the published file: what the explorer's
// as_of and changed_since tests ask of it, with the explorer's CSV of the bucket's day.
import { expect } from 'vitest';
import { startServe, type RunningServer } from '../../src/serve/index.ts';
import { silentLogger } from '../../src/util/log.ts';
import { get } from './raw-http.ts';
import { testConfig } from './report-fixtures.ts';
import { restatedDatabase, type RestatedDatabase } from './restated-database.ts';

export interface RestatedExplorer extends RestatedDatabase {
  serve: RunningServer;
  /** The lines of /explore.csv for the bucket's day with these parameters (the answer must be 200). */
  csv: (params: string) => Promise<string[]>;
  /** Stops the server and removes the database's folder. */
  stop: () => Promise<void>;
}

export async function restatedExplorer(prefix: string): Promise<RestatedExplorer> {
  const db = await restatedDatabase(prefix);
  const allocation = { categories: { team: { rules: [{ value: 'research', match: { resource: 'pod-r' } }], default: 'other', split: [] } } };
  const serve = await startServe({ dbPath: db.tmp.db, config: testConfig({ timeZone: 'UTC', allocation }), host: '127.0.0.1', port: 0, log: silentLogger, cacheAnswers: false });
  const csv = async (params: string) => {
    const res = await get(`${serve.url}/explore.csv?from=${db.day}&to=${db.day}&${params}`);
    expect(res.status, res.body).toBe(200);
    return res.body.trimEnd().split(/\r?\n/);
  };
  const stop = async () => {
    await serve.close();
    db.tmp.cleanup();
  };
  return { ...db, serve, csv, stop };
}
