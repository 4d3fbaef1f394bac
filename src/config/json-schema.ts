// The JSON Schema of the config file, generated from the zod schema so that editors complete and check
// gpuledger.config.json ("$schema": "./config/gpuledger.schema.json"). Regenerate: npm run config:schema.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { configSchema } from './schema.ts';

export const JSON_SCHEMA_PATH = fileURLToPath(new URL('../../config/gpuledger.schema.json', import.meta.url));

export function configJsonSchemaText(): string {
  // io 'input': what a user may write (defaults make fields optional), not what the program sees after parsing
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' });
  return JSON.stringify({ ...schema, title: 'gpuledger configuration' }, null, 2) + '\n';
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(JSON_SCHEMA_PATH, configJsonSchemaText());
  process.stdout.write(`wrote ${JSON_SCHEMA_PATH}\n`);
}
