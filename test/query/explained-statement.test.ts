// What an EXPLAIN wraps, read by DuckDB's own parse (issue 18 §3): a query passes, anything else – however the head
// is spelled, with comments that look like queries and strings that look like comments – is named and refused.
import { DuckDBInstance, StatementType, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainedStatement } from '../../src/query/explained-statement.ts';

describe('explainedStatement', () => {
  let instance: DuckDBInstance;
  let connection: DuckDBConnection;

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    connection = await instance.connect();
    await connection.run('create table t (a integer)');
  });
  afterAll(() => {
    connection.closeSync();
    instance.closeSync();
  });

  it.each([
    'explain select 1',
    'explain analyze select 1',
    'EXPLAIN ANALYSE select a from t',
    'explain (analyze, format json) from t',
    'explain/* copy (select 1) to x */analyze\n-- insert into t\nwith a as (select 1) select * from a',
    'explain analyze (select 1)',
    'explain analyze values (1), (2)',
    "explain analyze select ';' as semicolon",
    'explain analyze select * from t where a in (select a from t)',
  ])('finds a query in %j', async (sql) => {
    expect(await explainedStatement(connection, sql)).toEqual({ query: true });
  });

  it.each([
    ["explain analyze copy (select 1) to 'x.csv'", StatementType.COPY],
    ["explain (analyze, format json) copy (select 1) to 'x.csv'", StatementType.COPY],
    ["explain analyze /* select 1 */ copy (select ' select 1 --') to 'x.csv'", StatementType.COPY],
    ["explain analyze -- select 1\ncopy t to 'x.csv'", StatementType.COPY],
    ['explain analyze insert into t select 1', StatementType.INSERT],
    ['explain analyze/**/delete from t', StatementType.DELETE],
    ['explain (analyze) create temp table x as select 1', StatementType.CREATE],
    ['explain analyze set variable gpuledger_as_of = now()', StatementType.SET],
    ['explain analyze load json', StatementType.LOAD],
  ])('finds no query in %j and names what it is', async (sql, type) => {
    expect(await explainedStatement(connection, sql)).toEqual({ query: false, type });
  });

  it('answers "not a query" when it cannot tell, never "a query"', async () => {
    // no place in the text where DuckDB agrees the head ends: refused rather than guessed
    expect(await explainedStatement(connection, 'explain(select 1)')).toEqual({ query: false });
  });
});
