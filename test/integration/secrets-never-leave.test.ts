// Secrets never leave the process (issue 26 §1): a distinctive secret goes into every input that can carry a
// credential – the API key, a password in --api-url and in the queue API URL, a webhook URL's user, password and
// token, the SMTP password, the PostgreSQL password and the serve token – and the real CLI then syncs from the
// simulator, renders the report in both formats and emails it, delivers alerts to a file, a webhook and email,
// answers queries, exports FOCUS, the lake and the PostgreSQL mirror, and serves pages. Not one byte of what a
// person or another program could read afterwards may hold the secret: the commands' output and logs, every file
// in the data and out folders (DuckDB files byte for byte and table by table, workbooks unzipped, Parquet read
// back), what the webhook and the mail server received, what the PostgreSQL mirror holds, and the served pages.
// The credentials still do their job: the simulator answers the key, the webhook receiver gets its token and
// basic-auth header, the mail server the SMTP password.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.ts';
import { requirePostgres, startPostgres, type TestPostgres } from '../helpers/postgres.ts';
import { flatten, parseMime, startSmtp, type TestSmtp } from '../helpers/smtp.ts';
import { fastSimulator } from '../helpers/sync.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';
import { listenOnLoopback } from '../helpers/loopback.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
/** The mark every secret of this run carries: found anywhere, something leaked. */
const MARK = `S3CR3T-${randomBytes(6).toString('hex')}`;
const SECRET = {
  apiKey: `${MARK}-api-key`,
  apiPassword: `${MARK}-api-password`,
  queuePassword: `${MARK}-queue-password`,
  hookUser: `${MARK}-hook-user`,
  hookPassword: `${MARK}-hook-password`,
  hookToken: `${MARK}-hook-token`,
  smtpPassword: `${MARK}-smtp-password`,
  serveToken: `${MARK}-serve-token-long-enough-for-serve`,
};
const withPostgres = requirePostgres();

interface Run {
  command: string;
  code: number;
  stdout: string;
  stderr: string;
}

interface Hook {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Every place the secret was found, named; the test expects none. */
const leaks: string[] = [];
const runs: Run[] = [];

function search(where: string, text: string | Buffer): void {
  const s = typeof text === 'string' ? text : text.toString('latin1');
  // the mark in the bytes, and in case a writer escaped or encoded it, in its UTF-16 and hex spellings too
  const spellings = [MARK, Buffer.from(MARK, 'utf16le').toString('latin1'), Buffer.from(MARK).toString('hex')];
  for (const m of spellings) {
    const at = s.indexOf(m);
    if (at >= 0) leaks.push(`${where}: …${JSON.stringify(s.slice(Math.max(0, at - 60), at + m.length + 20))}…`);
  }
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile());
}

const isDuckDb = (bytes: Buffer) => bytes.length > 12 && bytes.subarray(8, 12).toString('latin1') === 'DUCK';

/** Every table of a DuckDB file row by row, and every view's text: strings may be compressed in the file's bytes. */
async function duckDbText(path: string): Promise<string> {
  const instance = await DuckDBInstance.create(path, { access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  try {
    const parts: string[] = [];
    const tables = (await c.runAndReadAll(`select schema_name, table_name from duckdb_tables() where not internal`)).getRowObjectsJson();
    for (const t of tables) {
      const rows = await c.runAndReadAll(`select to_json(t)::varchar from "${String(t.schema_name)}"."${String(t.table_name)}" t`);
      parts.push(`${String(t.table_name)}: ${rows.getRowsJson().map((r) => String(r[0])).join('\n')}`);
    }
    const views = await c.runAndReadAll(`select sql from duckdb_views() where not internal`);
    parts.push(...views.getRowsJson().map((r) => String(r[0])));
    return parts.join('\n');
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** The rows of Parquet files, read back: their pages are compressed. */
async function parquetText(path: string): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const c = await instance.connect();
  try {
    const rows = await c.runAndReadAll(`select to_json(t)::varchar from read_parquet('${path.replaceAll("'", "''")}') t`);
    return rows.getRowsJson().map((r) => String(r[0])).join('\n');
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

/** Search a file as a person or a program would read it. */
async function searchFile(root: string, file: string): Promise<void> {
  const where = relative(root, file);
  const bytes = readFileSync(file);
  search(where, bytes);
  if (isDuckDb(bytes)) search(`${where} (tables)`, await duckDbText(file));
  if (file.endsWith('.parquet')) search(`${where} (rows)`, await parquetText(file));
  if (file.endsWith('.xlsx')) {
    for (const [entry, content] of Object.entries(unzipSync(bytes))) search(`${where}!${entry}`, Buffer.from(content));
  }
}

describe('secrets never leave the process', () => {
  let sim: Simulator;
  let tmp: TempDir;
  let smtp: TestSmtp;
  let hookServer: Server;
  let pgServer: TestPostgres | undefined;
  const hooks: Hook[] = [];
  let config: string;
  let env: Record<string, string>;
  let globals: string[];
  let dataDir: string;
  let outDir: string;

  /** The real CLI with the run's globals (withGlobals false: the args say everything). */
  function gpuledger(args: string[], withGlobals = true): Promise<Run> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...(withGlobals ? globals : []), ...args], { env: { ...process.env, GPULEDGER_CONFIG: '', ...env } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('error', reject);
      child.on('close', (code) => {
        const run = { command: args.join(' '), code: code ?? -1, stdout, stderr };
        runs.push(run);
        search(`stdout of ${run.command}`, stdout);
        search(`stderr of ${run.command}`, stderr);
        resolve(run);
      });
    });
  }

  beforeAll(async () => {
    sim = await fastSimulator({ keys: [SECRET.apiKey] });
    tmp = tempDir('gpuledger-secrets-');
    dataDir = join(tmp.dir, 'data');
    outDir = join(tmp.dir, 'out');
    mkdirSync(dataDir);
    smtp = await startSmtp({ user: 'gpuledger', password: SECRET.smtpPassword });
    hookServer = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        hooks.push({ url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
        res.end('ok');
      });
    });
    const hookPort = await listenOnLoopback(hookServer);
    if (withPostgres) pgServer = await startPostgres();

    const port = new URL(sim.url).port;
    config = join(tmp.dir, 'gpuledger.config.json');
    writeFileSync(
      config,
      JSON.stringify({
        outDir,
        accounts: [{ name: 'main', apiKeyEnv: 'RUNPOD_API_KEY', simulated: true }],
        sync: { start: 'P20D', bucketSizes: { pods: [{ size: 'day' }], serverless: [{ size: 'day' }] } },
        reports: { delivery: { nightly: { recipients: ['finance@example.com'] } }, email: { attempts: 1, retryDelaySeconds: 0 } },
        smtp: { host: '127.0.0.1', port: smtp.port, user: 'gpuledger', from: 'gpuledger <finops@example.com>', timeoutSeconds: 10 },
        alerts: {
          budgets: [{ name: 'tiny', amount: '1.00' }],
          channels: [
            { type: 'file' },
            { type: 'webhook', url: `http://${SECRET.hookUser}:${SECRET.hookPassword}@127.0.0.1:${hookPort}/hook?channel=finops&token=${SECRET.hookToken}`, retryDelayMs: 10 },
            { type: 'email', to: ['oncall@example.com'] },
          ],
        },
        ...(pgServer ? { export: { postgres: { url: pgServer.url, passwordEnv: 'GPULEDGER_TEST_PGPASSWORD' } } } : {}),
      }),
    );
    env = {
      RUNPOD_API_KEY: SECRET.apiKey,
      GPULEDGER_SMTP_PASSWORD: SECRET.smtpPassword,
      GPULEDGER_QUEUE_API_URL: `http://queue-user:${SECRET.queuePassword}@127.0.0.1:${port}`,
      GPULEDGER_SERVE_TOKEN: SECRET.serveToken,
      GPULEDGER_LOG_LEVEL: 'debug',
      ...(pgServer ? { GPULEDGER_TEST_PGPASSWORD: pgServer.password } : {}),
    };
    globals = ['--config', config, '--db', join(dataDir, 'ledger.duckdb'), '--api-url', `http://gpuledger:${SECRET.apiPassword}@127.0.0.1:${port}`];
  }, 120_000);

  afterAll(async () => {
    await sim?.close();
    await smtp?.close();
    await new Promise<void>((r) => (hookServer ? hookServer.close(() => r()) : r()));
    await pgServer?.stop();
    tmp?.cleanup();
  });

  it('syncs, reports, alerts, queries and exports with every credential in use, and none of them is written anywhere', async () => {
    const sync = await gpuledger(['sync']);
    expect(sync.stdout, sync.stderr).toMatch(/run [0-9a-f-]+: success/);
    expect(sync.code).toBe(0);

    const report = await gpuledger(['report', '--format', 'both', '--email']);
    expect(report.code, report.stderr).toBe(0);
    const alerts = await gpuledger(['alerts']);
    expect(alerts.code, alerts.stderr).toBe(0);
    for (const sql of ['select * from dim_account', 'select * from rpt_accounts', 'select * from _meta_accounts', 'select * from _meta_runs']) {
      const q = await gpuledger(['query', '--format', 'json', sql]);
      expect(q.code, q.stderr).toBe(0);
    }
    const accounts = await gpuledger(['query', '--format', 'json', 'select api_url from dim_account']);
    expect(JSON.parse(accounts.stdout)).toEqual([{ api_url: sim.url }]);
    for (const args of [
      ['export', 'focus', '--format', 'csv', '--out', join(outDir, 'focus.csv')],
      ['export', 'focus', '--out', join(outDir, 'focus.parquet')],
      ['export', 'lake', '--out', join(outDir, 'lake')],
      ...(pgServer ? [['export', 'postgres']] : []),
    ]) {
      const r = await gpuledger(args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }

    // the credentials did their job
    expect(readdirSync(outDir).filter((f) => f.endsWith('.xlsx'))).toHaveLength(1);
    expect(readdirSync(outDir).filter((f) => f.endsWith('.html'))).toHaveLength(1);
    expect(hooks.length).toBeGreaterThan(0);
    for (const h of hooks) {
      expect(new URL(h.url, 'http://x').searchParams.get('token')).toBe(SECRET.hookToken);
      expect(h.headers.authorization).toBe(`Basic ${Buffer.from(`${SECRET.hookUser}:${SECRET.hookPassword}`).toString('base64')}`);
    }
    expect(smtp.received.length).toBeGreaterThanOrEqual(2); // the report and the alert email
    expect(smtp.passwords).toContain(SECRET.smtpPassword);

    // what the receivers were given to keep: the webhook's bodies, every mail part decoded
    for (const [i, h] of hooks.entries()) search(`webhook body ${i}`, h.body);
    for (const [i, m] of smtp.received.entries()) {
      for (const [j, part] of flatten(parseMime(m.raw)).entries()) {
        search(`mail ${i} part ${j} (${part.contentType})`, part.body);
        if (part.body.subarray(0, 2).toString() === 'PK') {
          for (const [entry, content] of Object.entries(unzipSync(part.body))) search(`mail ${i} part ${j}!${entry}`, Buffer.from(content));
        }
      }
    }
    if (pgServer) {
      const client = await pgServer.connect();
      try {
        const tables = await client.query<{ s: string; t: string }>(`select table_schema s, table_name t from information_schema.tables where table_schema = 'gpuledger'`);
        expect(tables.rows.length).toBeGreaterThan(0);
        for (const { s, t } of tables.rows) {
          const rows = await client.query(`select row_to_json(x)::text as j from "${s}"."${t}" x`);
          search(`postgres ${s}.${t}`, rows.rows.map((r: { j: string }) => r.j).join('\n'));
        }
      } finally {
        await client.end();
      }
    }

    // the served pages, through the real CLI (its own output is searched when it stops)
    const served = await serve();
    try {
      for (const path of ['/views', '/view/rpt_accounts', '/view/dim_account', '/view/dim_account.csv', '/sql?q=select%20*%20from%20dim_account', '/report/nightly']) {
        const res = await fetch(served.url + path, { headers: { authorization: `Bearer ${SECRET.serveToken}` } });
        const body = await res.text();
        expect(res.status, `${path}: ${body.slice(0, 200)}`).toBe(200);
        search(`served ${path}`, body);
        if (path.startsWith('/view/dim_account')) expect(body).toContain(sim.url.replace('http://', ''));
      }
    } finally {
      await served.stop();
    }

    for (const root of [dataDir, outDir]) {
      for (const file of filesUnder(root)) await searchFile(tmp.dir, file);
    }
    expect(filesUnder(dataDir).some((f) => f.endsWith('.duckdb'))).toBe(true);
    expect(leaks).toEqual([]);
  }, 300_000);

  it('refuses or fails on URLs it cannot use without repeating their credentials, and records none', async () => {
    const db = join(dataDir, 'ledger.duckdb');
    const dead = join(tmp.dir, 'dead-webhook.json');
    const hook = `http://hook:${SECRET.hookPassword}@127.0.0.1:9/hook?token=${SECRET.hookToken}`;
    writeFileSync(dead, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), alerts: { budgets: [{ name: 'tiny-dead', amount: '1.00' }], channels: [{ type: 'webhook', url: hook, attempts: 1 }] } }));
    const cases: Array<[string[], number, RegExp]> = [
      [['--config', config, '--db', db, '--api-url', `http://gpuledger:${SECRET.apiPassword}@127.0.0.1:99999`, 'sync'], 2, /API URL 'http:\/\/127\.0\.0\.1:99999' is not a valid URL/],
      [['--config', config, '--db', db, '--api-url', `${sim.url}/?token=${SECRET.apiKey}`, 'sync'], 2, /\?token=\*\*\*' has a query/],
      [['--config', config, '--db', db, 'export', 'postgres', '--url', `postgres://gpuledger:${SECRET.apiPassword}@127.0.0.1:1/db`], 2, /carries a password/],
      [['--config', dead, '--db', db, 'alerts'], 3, /webhook:127\.0\.0\.1:9/],
    ];
    for (const [args, code, says] of cases) {
      const r = await gpuledger(args, false);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(code);
      expect(r.stdout + r.stderr).toMatch(says);
    }
    for (const file of filesUnder(dataDir)) await searchFile(tmp.dir, file);
    expect(leaks).toEqual([]);
  }, 120_000);

  /** `gpuledger serve --port 0` in a child process, until stop(). */
  function serve(): Promise<{ url: string; stop(): Promise<void> }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, ...globals, 'serve', '--port', '0'], { env: { ...process.env, GPULEDGER_CONFIG: '', ...env } });
      let stdout = '';
      let stderr = '';
      const closed = new Promise<void>((done) =>
        child.on('close', (code) => {
          runs.push({ command: 'serve', code: code ?? -1, stdout, stderr });
          search('stdout of serve', stdout);
          search('stderr of serve', stderr);
          done();
        }),
      );
      child.on('error', reject);
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        const m = /gpuledger serve on (http:\/\/[^/\s]+)/.exec(stdout);
        if (m) resolve({ url: m[1]!, stop: () => (child.kill('SIGTERM'), closed) });
      });
      void closed.then(() => reject(new Error(`serve ended before it listened: ${stderr}`)));
    });
  }
});
