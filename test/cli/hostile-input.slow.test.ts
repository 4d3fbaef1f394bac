// Hostile input (issue 12 items 3 and 5), kept as a table: each row runs the real CLI on a real database file and
// checks the exit code (DESIGN.md: 1 failure, 2 usage or configuration) and that stderr is exactly one line
// `gpuledger: …` saying what was wrong – never a stack, a second line, a raw internal error or a key.
import { closeSync, copyFileSync, mkdirSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billPods, viewStore } from '../helpers/view-store.ts';
import { gpuledger, type CliResult } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SECRET = 'sk-live-hostile-0123456789-never-shown';
const dir = tempDir('gpuledger-hostile-').dir;
const db = join(dir, 'ledger.duckdb');
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};
// an account whose key is set, at an address nothing answers: the rows fail before any request is made
const config = file('gpuledger.config.json', JSON.stringify({ apiUrl: 'http://127.0.0.1:9', accounts: [{ name: 'a', apiKeyEnv: 'GPULEDGER_TEST_KEY' }] }));
const env = { GPULEDGER_TEST_KEY: SECRET, GPULEDGER_CONFIG: config, GPULEDGER_DB: db };

/** A copy of the database with its blocks after the header overwritten (a bad disk), or cut short (a full disk). */
function damaged(how: 'garbage' | 'truncated'): string {
  const copy = join(dir, `${how}`, 'ledger.duckdb');
  mkdirSync(join(dir, how), { recursive: true });
  copyFileSync(db, copy);
  if (how === 'truncated') truncateSync(copy, Math.floor(statSync(copy).size / 2));
  else {
    const fd = openSync(copy, 'r+');
    writeSync(fd, Buffer.alloc(256 * 1024, 0xab), 0, 256 * 1024, 8192);
    closeSync(fd);
  }
  return copy;
}

function expectOneLine(r: CliResult, code: number, message: RegExp): void {
  expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code, stderr: expect.stringMatching(/^gpuledger: [^\n]+\n$/) });
  expect(r.stderr).toMatch(message);
  expect(r.stderr + r.stdout).not.toContain(SECRET);
}

describe('hostile input: one line and the documented exit code', () => {
  beforeAll(async () => {
    const store = await viewStore(db);
    await billPods(store, [{ pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '1.500000' }]);
    await store.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const future = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 19) + 'Z';
  const rows: Array<[string, () => string[], number, RegExp]> = [
    // flags and commands
    ['--log-level verbose (views reads no settings)', () => ['--log-level', 'verbose', 'views'], 2, /--log-level must be one of error, warn, info, debug, got 'verbose'/],
    ['an unknown command', () => ['frob'], 2, /unknown command 'frob' \(run gpuledger --help for usage\)/],
    ['a misspelt command', () => ['sinc'], 2, /unknown command 'sinc' \(Did you mean sync\?\)/],
    ['an unknown option', () => ['query', '--formt', 'csv', 'select 1'], 2, /unknown option '--formt'/],
    ['query without SQL', () => ['query'], 2, /missing required argument 'sql'/],
    ['--format xml', () => ['query', 'select 1', '--format', 'xml'], 2, /--format must be one of table, csv, json, ndjson, parquet, xlsx, got 'xml'/],
    ['report --period 2026-13', () => ['report', '--period', '2026-13'], 2, /--period takes a month such as 2026-10 .* got '2026-13'/],
    ['sync --since in the future', () => ['sync', '--since', future], 2, new RegExp(`--since ${future} is in the future`)],
    // days the calendar lacks and years past 9999: the one date parser's line (src/util/dates.ts), whatever the flag
    ['report --period 2026-02-30..2026-03-01', () => ['report', '--period', '2026-02-30..2026-03-01'], 2, /^gpuledger: --period takes a month .*, got '2026-02-30\.\.2026-03-01': 2026-02-30: February 2026 has 28 days\n$/],
    ['alerts --as-of 2026-02-30T10:00:00Z', () => ['alerts', '--dry-run', '--as-of', '2026-02-30T10:00:00Z'], 2, /^gpuledger: --as-of must be an RFC 3339 date-time such as 2026-10-01T00:00:00Z, got '2026-02-30T10:00:00Z': February 2026 has 28 days\n$/],
    ['query --as-of 2026-04-31T00:00:00Z', () => ['query', '--as-of', '2026-04-31T00:00:00Z', 'select 1'], 2, /^gpuledger: --as-of must be an RFC 3339 date-time .*, got '2026-04-31T00:00:00Z': April 2026 has 30 days\n$/],
    ['sync --until 10000-01-01T00:00:00Z', () => ['sync', '--until', '10000-01-01T00:00:00Z'], 2, /^gpuledger: --until must be an RFC 3339 date-time .*, got '10000-01-01T00:00:00Z': years stop at 9999\n$/],
    // SQL: a failed statement is a failed command (1); no statement at all is a usage error (2)
    ['a syntax error', () => ['query', 'selec 1'], 1, /SQL error at line 1, column 1: Parser Error: syntax error at or near "selec"/],
    ['a missing table', () => ['query', 'select * from nope'], 1, /SQL error at line 1, column 15: Catalog Error: Table with name nope does not exist/],
    ['an empty SQL text', () => ['query', ''], 2, /query needs a SQL statement, and the text holds none/],
    ['a blank SQL text', () => ['query', '  \n '], 2, /query needs a SQL statement, and the text holds none/],
    ['a comment only', () => ['query', '-- only a note'], 2, /query needs a SQL statement, and the text holds none/],
    ['a semicolon only', () => ['query', ';'], 2, /query needs a SQL statement, and the text holds none/],
    ['--out into a folder that does not exist', () => ['query', '--out', '/nonexistent/dir/x.csv', 'select 1'], 2, /--out \/nonexistent\/dir\/x\.csv: the folder \/nonexistent\/dir does not exist/],
    ['--out naming a folder', () => ['query', '--out', dir, 'select 1'], 2, /--out .* is a folder; pass a file name/],
    // configuration
    ['views with an unknown config key', () => ['--config', file('unknown-key.json', '{"colour": "blue"}'), 'views'], 2, /config .*unknown-key\.json: .*Unrecognized key: "colour"/],
    ['an empty config file', () => ['--config', file('empty.json', ''), 'views'], 2, /config .*empty\.json: not valid JSON/],
    ['a config that is a JSON array', () => ['--config', file('array.json', '[]'), 'views'], 2, /config .*array\.json: .*expected object, received array/],
    ['a config that does not exist', () => ['--config', join(dir, 'nope.json'), 'views'], 2, /config .*nope\.json: no such file/],
    ['--db pointing at a folder (reader)', () => ['--db', dir, 'query', 'select 1'], 2, /database .* is a folder; pass the database file/],
    ['--db pointing at a folder (writer)', () => ['--db', dir, 'sync'], 2, /database .* is a folder; pass the database file/],
    ['--db in a folder that cannot be created', () => ['--db', join(config, 'sub', 'x.duckdb'), 'sync'], 2, /gpuledger\.config\.json is a file, so its folder cannot be created/],
    ['report --out-dir under a file', () => ['report', '--out-dir', join(config, 'out')], 2, /--out-dir .*: .*gpuledger\.config\.json is a file, so the folder cannot be created/],
  ];

  it.each(rows)('%s', async (_name, args, code, message) => {
    expectOneLine(await gpuledger(args(), env), code, message);
  });

  // a damaged file is not the user's SQL nor their flags: exit 1, the file named, and the way to rebuild it
  const rebuild = /database .*ledger\.duckdb is damaged \(.*\); move it aside \(mv .*ledger\.duckdb .*\.damaged.*\) and run gpuledger sync to rebuild it from the platform/;
  it.each([
    ['garbage', 'query', ['query', 'select count(*) from raw_billing_pods']],
    ['garbage', 'report', ['report', '--out-dir', join(dir, 'out')]],
    ['garbage', 'sync', ['sync']],
    ['garbage', 'alerts', ['alerts']],
    ['truncated', 'query', ['query', 'select count(*) from raw_billing_pods']],
    ['truncated', 'report', ['report', '--out-dir', join(dir, 'out')]],
    ['truncated', 'sync', ['sync']],
    ['truncated', 'alerts', ['alerts']],
  ] as const)('a %s database file: %s says it is damaged and how to rebuild it', async (how, _command, args) => {
    const r = await gpuledger([...args], { ...env, GPULEDGER_DB: damaged(how) });
    expectOneLine(r, 1, rebuild);
  });

  it('gpuledger without a command lists the commands on stdout and says one line on stderr (exit 2)', async () => {
    const r = await gpuledger([], env);
    expectOneLine(r, 2, /a command is required/);
    expect(r.stdout).toMatch(/^Usage: gpuledger /);
  });

  it('runs SQL that starts with a -- comment', async () => {
    const r = await gpuledger(['query', '-- pods billed\nselect count(*) as n from raw_billing_pods', '--format', 'csv'], env);
    expect(r).toMatchObject({ code: 0, stdout: 'n\r\n1\r\n', stderr: '' });
    // the comment is SQL even after other flags, and the caret position of an error below it is unchanged
    const error = await gpuledger(['query', '--format', 'csv', '-- note\nselect nope'], env);
    expectOneLine(error, 1, /SQL error at line 2, column 8: Binder Error: Referenced column "nope"/);
  });
});
