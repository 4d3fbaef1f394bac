import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configJsonSchemaText, JSON_SCHEMA_PATH } from '../../src/config/json-schema.ts';

describe('config JSON Schema', () => {
  it('is committed up to date with the zod schema (run npm run config:schema after changing a section)', () => {
    expect(readFileSync(JSON_SCHEMA_PATH, 'utf8')).toBe(configJsonSchemaText());
  });
});
