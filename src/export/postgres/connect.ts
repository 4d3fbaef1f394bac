// Connecting to the export target. The password is read from the environment only when the server asks for one (so
// a trust or certificate setup needs none) and is registered for redaction; node-postgres's own fallbacks – PG*
// variables for the other settings, ~/.pgpass – are not used: the URL and passwordEnv say everything.
import pg from 'pg';
import type { PostgresUrl } from '../../config/postgres-url.ts';
import { ConfigError } from '../../util/errors.ts';
import { readSecretEnv } from '../../util/secrets.ts';

export interface PostgresTarget {
  url: PostgresUrl;
  /** The environment variable holding the password. */
  passwordEnv: string;
  schema: string;
}

/** How long to wait for the server to accept a connection before calling it unreachable. */
const CONNECT_TIMEOUT_MS = 15_000;

export async function connectPostgres(target: PostgresTarget, env: NodeJS.ProcessEnv = process.env): Promise<pg.Client> {
  const { url } = target;
  const client = new pg.Client({
    host: url.host,
    port: url.port,
    user: url.user,
    database: url.database,
    password: () => {
      const password = readSecretEnv(target.passwordEnv, env);
      if (password === undefined) {
        throw new ConfigError(`PostgreSQL at ${url.display} asks for a password and ${target.passwordEnv} is not set; set it in the environment (the URL never carries one)`);
      }
      return password;
    },
    ssl: url.sslmode === 'require' ? { rejectUnauthorized: false } : url.sslmode === 'verify-full' ? true : false,
    application_name: 'gpuledger export',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // a server that vanishes without a word (a cut network) is noticed instead of waited on forever
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // an idle connection that breaks (the server stops while DuckDB works) emits 'error'; the next query then fails
  // with it, and that is where it is reported – an unhandled 'error' event would end the process with a stack trace
  client.on('error', () => {});
  await client.connect();
  return client;
}
