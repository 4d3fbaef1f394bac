// The SQL that TypeScript passes to the database is held to the same layer rule as the .sql files
// (src/transform/sql-layers.ts): a report module reading an internal view, a comma join into staging, a quoted
// "stg_pods" – each written in a temporary copy of src/ – fail, naming the file and line.
import { appendFileSync, cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layerViolations, TS_SQL_EXEMPT, TS_SQL_LOADERS, type SerializeSql } from '../../src/transform/sql-layers.ts';
import { listViewFiles, sqlObjects } from '../../src/transform/views.ts';
import { tsFiles } from '../helpers/import-graph.ts';
import { sqlInFile } from '../helpers/ts-sql.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const objects = sqlObjects(listViewFiles());
let scratch: DuckDBConnection;
const serialize: SerializeSql = async (sql) => String((await scratch.runAndReadAll('select json_serialize_sql($1::varchar)', [sql])).getRows()[0]![0]);

// what of a statement reads: a query as it is; the query of CREATE … AS and INSERT … SELECT. Other statements
// (UPDATE, DELETE, COPY, SET, ATTACH…) write or configure, and the loaders that write are allowed every layer anyway
const CREATE_AS = /^\s*create\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?table\s+(?:if\s+not\s+exists\s+)?[\w."]+\s+as\s+/i;
const INSERT = /^\s*insert\s+(?:or\s+\w+\s+)?into\s+[\w."]+\s*(?:\([^)]*\)\s*)?(?:by\s+name\s+)?(?=select|with|\()/i;
function queryOf(sql: string): string | undefined {
  if (/^\s*(select|with|from)\b/i.test(sql)) return sql;
  for (const re of [CREATE_AS, INSERT]) if (re.test(sql)) return sql.replace(re, '');
  return undefined;
}

/** Every statement of the TypeScript under `src` that reads past its module's rule, as "file:line reads …". */
async function tsViolations(src: string): Promise<{ violations: string[]; checked: number; unparsed: string[] }> {
  const violations: string[] = [];
  const unparsed: string[] = [];
  let checked = 0;
  for (const file of tsFiles(src)) {
    const rel = relative(src, file);
    if (TS_SQL_EXEMPT[rel] !== undefined) continue;
    const reader = TS_SQL_LOADERS.includes(rel.split('/')[0]!) ? 'loaders' : 'application';
    for (const s of sqlInFile(file)) {
      const query = queryOf(s.sql);
      if (query === undefined) continue;
      try {
        for (const v of await layerViolations(query, reader, objects, serialize)) violations.push(`${rel}:${s.line} ${v.message}`);
        checked += 1;
      } catch {
        // a statement built of pieces (a ${…} standing for a whole clause) that parses only once assembled
        unparsed.push(`${rel}:${s.line}`);
      }
    }
  }
  return { violations, checked, unparsed };
}

describe('SQL inside TypeScript, held to the layer rule', () => {
  beforeAll(async () => {
    scratch = await (await DuckDBInstance.create(':memory:')).connect();
  });
  afterAll(() => scratch?.closeSync());

  it('finds no statement in src/ that reads past its module’s layer, and reads most of them', async () => {
    const { violations, checked, unparsed } = await tsViolations(SRC);
    expect(violations).toEqual([]);
    // the check sees the SQL it means to: far more statements parse than not
    expect(checked).toBeGreaterThan(80);
    expect(unparsed.length).toBeLessThan(checked / 3);
  });

  it('names each exemption’s file, and every exempt file exists', () => {
    const files = new Set(tsFiles(SRC).map((f) => relative(SRC, f)));
    for (const [file, why] of Object.entries(TS_SQL_EXEMPT)) {
      expect(files.has(file), file).toBe(true);
      expect(why.length).toBeGreaterThan(20);
    }
  });

  it('fails on a report module reading an internal view, a comma join into staging and a quoted "stg_pods"', async () => {
    const tmp = tempDir('gpuledger-ts-sql-');
    const copy = join(tmp.dir, 'src');
    try {
      cpSync(SRC, copy, { recursive: true });
      appendFileSync(join(copy, 'report', 'report-session.ts'), [
        '',
        'export const injected = async (store: { all(sql: string): Promise<unknown[]> }) => {',
        "  await store.all('select * from int_cost_allocated');",
        '  await store.all(`select c.amount from cost_daily c, stg_pods p where p.pod_id = c.resource_id and c.day > ${1}`);',
        "  const QUOTED = 'select * from \"stg_pods\"';",
        '  await store.all(QUOTED);',
        '};',
        '',
      ].join('\n'));
      const { violations } = await tsViolations(copy);
      expect(violations.map((v) => v.replace(/:\d+ /, ' ').split(' (')[0])).toEqual([
        'report/report-session.ts reads int_cost_allocated',
        'report/report-session.ts reads stg_pods',
        'report/report-session.ts reads stg_pods',
      ]);
      expect(violations[0]).toMatch(/but SQL in TypeScript may read only marts, .* – read a mart or report view/);
    } finally {
      tmp.cleanup();
    }
  });
});
