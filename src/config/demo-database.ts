// Which database a command reads right after `npm start`: the demo writes data/demo.duckdb (never the real
// database, so simulated rows never mix with an account's), and a new user's next step – `gpuledger query`, `report`,
// `serve` – would otherwise find no database at all. Until a real one exists, and unless --db or GPULEDGER_DB names
// one, commands use the demo database and say so (issue 25 §6).
import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';

/** Where `npm start` without a key (`run --demo`) keeps its database, relative to the current folder. */
export const DEMO_DB = 'data/demo.duckdb';

export interface DemoInstead {
  dbPath: string;
  /** One line for stderr: which file is read instead of which, and how to get a real one. */
  note: string;
}

/**
 * The demo database when `dbPath` does not exist (nor its writer copy, which a first sync killed before publishing
 * leaves) and was not named explicitly, but the demo's does; otherwise undefined.
 */
export function demoInstead(dbPath: string, explicit: boolean, cwd: string = process.cwd()): DemoInstead | undefined {
  if (explicit || existsSync(dbPath) || existsSync(`${dbPath}.writer`)) return undefined;
  const demo = resolve(cwd, DEMO_DB);
  if (demo === dbPath || !existsSync(demo)) return undefined;
  const shown = (path: string) => (relative(cwd, path).startsWith('..') ? path : relative(cwd, path));
  return {
    dbPath: demo,
    note: `using the demo database ${shown(demo)} (simulated data): ${shown(dbPath)} does not exist yet – \`gpuledger sync\` with an API key creates it`,
  };
}
