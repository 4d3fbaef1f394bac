// What an EXPLAIN explains, by DuckDB's own parse. EXPLAIN ANALYZE runs the statement it wraps, so `EXPLAIN ANALYZE
// COPY … TO '<db>.wal'` writes a file and `EXPLAIN ANALYZE SET VARIABLE …` sets one, while the prepared statement
// only says "EXPLAIN" (the node client exposes neither the inner statement nor its place in the text). So the text
// is split where DuckDB agrees it splits: the first tail that DuckDB parses as one statement, whose head followed by
// ` select 1` DuckDB parses as an EXPLAIN. The head's tokens can only be EXPLAIN, ANALYZE, VERBOSE, an option list
// and comments; a tail starting among them is never a SELECT, and a head that stops inside a string or a comment
// does not parse – so the split either is DuckDB's own or the answer is "not a query" (refused, never allowed).
import { StatementType, type DuckDBConnection } from '../util/duckdb-api.ts';

/** How many places to try before giving up (refusing): EXPLAIN's head is a few words and comments. */
const MAX_TRIES = 256;

export type Explained = { query: true } | { query: false; type?: StatementType };

/** What the single EXPLAIN statement `sql` wraps: a query (SELECT, WITH, FROM, VALUES, …) or something else. */
export async function explainedStatement(connection: DuckDBConnection, sql: string): Promise<Explained> {
  let tries = 0;
  for (let at = 1; at < sql.length && tries < MAX_TRIES; at++) {
    if (!startsToken(sql, at)) continue;
    tries++;
    const tail = sql.slice(at);
    const parsed = await parseAsQuery(connection, tail);
    if (parsed === 'unparsable') continue;
    if (!(await isExplainHead(connection, sql.slice(0, at)))) continue;
    return parsed === 'query' ? { query: true } : { query: false, type: await typeOf(connection, tail) };
  }
  return { query: false };
}

/** A place where a statement can begin: after white space, a closing parenthesis or the end of a comment. */
function startsToken(sql: string, at: number): boolean {
  return /[\s)/]/.test(sql[at - 1] ?? '') && !/\s/.test(sql[at] ?? ' ');
}

/**
 * json_serialize_sql only parses (nothing is bound, no file is touched) and serialises SELECT statements alone:
 * any other statement comes back as an error object, and so does text that is not exactly one statement.
 */
async function parseAsQuery(connection: DuckDBConnection, text: string): Promise<'query' | 'other' | 'unparsable'> {
  const reader = await connection.runAndReadAll('select json_serialize_sql($1::varchar) as j', [text]);
  const json = JSON.parse(String(reader.getRowsJson()[0]?.[0])) as { error?: boolean; error_type?: string; statements?: unknown[] };
  if (!json.error) return json.statements?.length === 1 ? 'query' : 'unparsable';
  // "not implemented: Only SELECT statements can be serialized" – it parsed, as something else
  if (json.error_type === 'not implemented') return (await statementCount(connection, text)) === 1 ? 'other' : 'unparsable';
  return 'unparsable';
}

async function statementCount(connection: DuckDBConnection, text: string): Promise<number> {
  try {
    return (await connection.extractStatements(text)).count;
  } catch {
    return 0;
  }
}

/** The head, with a harmless query after it, is one EXPLAIN statement: the split sits between whole tokens. */
async function isExplainHead(connection: DuckDBConnection, head: string): Promise<boolean> {
  try {
    const extracted = await connection.extractStatements(`${head} select 1`);
    if (extracted.count !== 1) return false;
    const prepared = await extracted.prepare(0);
    const type = prepared.statementType;
    prepared.destroySync();
    return type === StatementType.EXPLAIN;
  } catch {
    return false;
  }
}

/** The wrapped statement's type, to name it in the refusal; the sandbox is already in place when this binds. */
async function typeOf(connection: DuckDBConnection, text: string): Promise<StatementType | undefined> {
  try {
    const prepared = await (await connection.extractStatements(text)).prepare(0);
    const type = prepared.statementType;
    prepared.destroySync();
    return type;
  } catch {
    return undefined;
  }
}
