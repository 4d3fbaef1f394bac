// The PostgreSQL connection URL of `export postgres` (flag --url or export.postgres.url): postgres://USER@HOST:PORT/DB.
// The password never travels in it – it comes from the environment only (export.postgres.passwordEnv, default
// PGPASSWORD), so the URL can sit in a config file, a crontab or a log line. A URL that carries one is refused
// without repeating it. Messages and the export log show the URL by the rule of every URL gpuledger takes
// (util/url-credentials.ts): without user name or password; a message about the user names it on its own.

import { withoutCredentials } from '../util/url-credentials.ts';

export interface PostgresUrl {
  user: string;
  host: string;
  port: number;
  database: string;
  /** libpq's sslmode values that node-postgres honours; undefined = no TLS (a loopback or private network). */
  sslmode: 'disable' | 'require' | 'verify-full' | undefined;
  /** The URL as shown in messages and stored in the export log: never with a user name or password. */
  display: string;
}

const SSL_MODES = ['disable', 'require', 'verify-full'] as const;
const ACCEPTED = 'postgres://USER@HOST:PORT/DB (optionally ?sslmode=disable|require|verify-full)';

/** Parse and check a connection URL; the error (a string) says what was wrong and what is accepted, never the secret. */
export function parsePostgresUrl(text: string): PostgresUrl | string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `not a URL; expected ${ACCEPTED}`;
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') return `must start with postgres://, got ${url.protocol}//; expected ${ACCEPTED}`;
  if (url.password !== '') {
    return 'carries a password; leave it out of the URL and set it in the environment (PGPASSWORD, or the variable export.postgres.passwordEnv names)';
  }
  const user = decodeURIComponent(url.username);
  if (!user) return `names no user; expected ${ACCEPTED}`;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) return `names no host; expected ${ACCEPTED}`;
  const port = url.port === '' ? 5432 : Number(url.port);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database || database.includes('/')) return `names no database (the path after the port); expected ${ACCEPTED}`;
  let sslmode: PostgresUrl['sslmode'];
  for (const [key, value] of url.searchParams) {
    if (key !== 'sslmode') return `has an unknown parameter '${key}'; accepted: sslmode=${SSL_MODES.join('|')}`;
    if (!(SSL_MODES as readonly string[]).includes(value)) return `sslmode must be ${SSL_MODES.join(', ')}, got '${value}'`;
    sslmode = value as PostgresUrl['sslmode'];
  }
  const display = withoutCredentials(`postgres://${encodeURIComponent(user)}@${url.host}/${encodeURIComponent(database)}${sslmode ? `?sslmode=${sslmode}` : ''}`);
  return { user, host, port, database, sslmode, display };
}

/** A PostgreSQL identifier gpuledger creates (the schema): lowercase, so no one has to quote it in their SQL. */
export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
