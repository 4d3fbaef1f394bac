// Where `export postgres` writes: the flags (--url, --schema) over the config's export.postgres, checked once for the
// command and the nightly job alike. A bad value is a UsageError naming what is accepted – never echoing the URL,
// which a user may have typed a password into.
import type { Config } from '../../config/schema.ts';
import { parsePostgresUrl, SCHEMA_NAME } from '../../config/postgres-url.ts';
import { UsageError } from '../../util/errors.ts';
import type { PostgresTarget } from './connect.ts';

export function resolvePostgresTarget(config: Config, flags: { url?: string; schema?: string } = {}): PostgresTarget {
  const configured = config.export.postgres;
  const text = flags.url ?? configured?.url;
  if (!text) throw new UsageError('export postgres needs --url postgres://USER@HOST:PORT/DB, or export.postgres.url in the config file');
  const url = parsePostgresUrl(text);
  if (typeof url === 'string') throw new UsageError(`--url ${url}`);
  const schema = flags.schema ?? configured?.schema ?? 'gpuledger';
  if (!SCHEMA_NAME.test(schema)) {
    throw new UsageError(`--schema must be a lowercase PostgreSQL name (letters, digits, underscores; not starting with a digit; at most 63), got '${schema}'`);
  }
  return { url, schema, passwordEnv: configured?.passwordEnv ?? 'PGPASSWORD' };
}

export function describeTarget(target: PostgresTarget): string {
  return `${target.url.display} (schema ${target.schema})`;
}
