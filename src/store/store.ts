// What a store is to its users: an open database file that runs SQL (src/transform/sql-session.ts) and can be
// closed. A module of types only, so that what database.ts opens with (migrate.ts) can name a Store without
// importing the module that opens it.
import type { SqlSession } from '../transform/sql-session.ts';

export type { Params, Row } from '../transform/sql-session.ts';

export interface Store extends SqlSession {
  readonly path: string;
  readonly readOnly: boolean;
  close(): Promise<void>;
}
