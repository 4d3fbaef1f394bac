// Every step of README.md works for a new user right after the demo (issue 25 §6, issue 38 §1): in a fresh folder,
// `npm start` without a key (node bin/gpuledger.js run --demo-if-no-key), then each command the README shows – its
// shell code blocks and every `gpuledger …` of the Commands table – as a shell runs it, expecting the exit code the
// README promises (0 unless a comment on the command says `exit N`), and the output the README prints after a command
// (a comment line right below it) compared with what the command prints. The commands are read from README.md at test
// time, so a line added to the README is tested without touching this file.
//
// What a demo cannot give is given by real parts, not skipped: the commands of a real account (`sync`, `run`) run in
// a folder of their own against the simulator over HTTP with its key; `--email` against an in-process SMTP server
// (and on the demo, where it writes the files and says in one warning that the demo is never emailed); `export
// postgres` against a throwaway PostgreSQL cluster, the README's host and password placeholders mapped to it; the
// `duckdb -readonly …` and python lines through DuckDB's own engine (the node client the project pins; neither the
// duckdb CLI nor python's duckdb module is installed here). What truly cannot run is listed in CANNOT_RUN with the
// reason; the long-running commands (serve, simulator) are started, asked for a page and stopped.
//
// Two files run it, each one part, side by side in two workers: test/integration/readme.test.ts the demo's folder
// (npm start, then every command that reads or changes the demo) and test/integration/readme-account.test.ts the
// real account's commands (their own folder, simulator, SMTP server and PostgreSQL). The two share no folder, file or
// server, and each part keeps the README's order; one file ran both one after the other (~420 s of a whole run, the
// longest file of the suite, as long as the suite may take).
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NEXT_STEPS } from '../../src/cli/commands/run.ts';
import { DEFAULT_KEY, startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { requirePostgres, startPostgres, type TestPostgres } from './postgres.ts';
import { readmeExamples, type ReadmeCommand } from './readme-examples.ts';
import { startSmtp, type TestSmtp } from './smtp.ts';
import { tempDir } from './temp-dir.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

/** Commands that cannot run in a test, and why. Anything else the README shows must run as promised. */
const CANNOT_RUN: readonly { match: RegExp; reason: string }[] = [
  { match: /\bgpuledger\s+schedule\b(?!.*--list)/s, reason: 'the daemon runs until stopped (its jobs: test/schedule)' },
  { match: /^npm test$/, reason: 'the whole suite, this test among it' },
  { match: /…|<[a-z][\w-]*>/i, reason: 'a template with a placeholder (… or <name>) for the reader to fill in' },
];
/** The commands of a real account: run in a folder of their own, against the simulator, the SMTP server and PostgreSQL. */
const ACCOUNT: readonly { match: RegExp; why: string }[] = [
  { match: /\bgpuledger\s+sync\b(?!.*--plan)/s, why: 'reads an account: its key is the simulator\'s' },
  { match: /\bgpuledger\s+run\b(?!.*--demo)/s, why: 'the nightly job of an account' },
  { match: /\s--email\b/, why: 'delivers to the in-process SMTP server (on the demo it writes the files and warns: tested below)' },
  { match: /\bexport\s+postgres\b|^export PGPASSWORD=/, why: 'exports into a throwaway PostgreSQL cluster' },
  { match: /\/backup\//, why: "a backup of the account's database, into a folder standing for /backup" },
  { match: /\bgpuledger\s+guardrails\b/, why: "reads the account's pods and endpoints, and acts on the simulator's: the example config's rule" },
];
/**
 * "Pointing gpuledger at a real account": the key the reader exports, then `npm start` – run as a block in a folder of
 * its own, against the simulator, which takes the README's key as an account's (so the key is the README's, not ours).
 */
const KEY_EXPORT = /^export RUNPOD_API_KEY=(\S+)$/;
const README_KEYS = ((e) => [...e.commands, ...e.others])(readmeExamples(README)).flatMap((c) => KEY_EXPORT.exec(c.command)?.[1] ?? []);
/** What `npm start` runs: the demo this whole file starts from (beforeAll). */
const IS_NPM_START = /^(npm install && )?npm start$/;
/** Run until stopped: started on a free port, asked for the page they print, then stopped. */
const LONG_RUNNING = /\bgpuledger\s+(serve|simulator)\b/;
/** Files of the reader's own that an example joins; the README cannot create them for the reader. */
const READERS_FILES: Record<string, string> = {
  'finance/teams.csv': 'pod_id,team\nzzkjmbh9u9fguk,research\n',
};

// the duckdb CLI, played by DuckDB's engine itself: `duckdb -readonly FILE "SQL"` prints each row as JSON
const DUCKDB_SHIM = `import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(REPO, 'package.json'))});
const { DuckDBInstance } = require('@duckdb/node-api');
const args = process.argv.slice(2);
const readOnly = args[0] === '-readonly';
const [file, sql] = readOnly ? args.slice(1) : args;
const { existsSync } = await import('node:fs');
if (!existsSync(file)) { process.stderr.write('Error: unable to open database "' + file + '": no such file\\n'); process.exit(1); }
const instance = await DuckDBInstance.create(file, readOnly ? { access_mode: 'READ_ONLY' } : {});
const connection = await instance.connect();
const reader = await connection.runAndReadAll(sql);
for (const row of reader.getRowObjectsJson()) process.stdout.write(JSON.stringify(row) + '\\n');
`;

const examples = readmeExamples(README);
const demoSteps: ReadmeCommand[] = DEMO_NEXT_STEPS.map(([command]) => ({
  line: 0,
  command: command.replace(/^npx /, ''),
  expectCode: 0,
  from: 'code block',
}));

interface Shell {
  code: number;
  stdout: string;
  stderr: string;
}

/** Exact decimal text → an integer count of 10^-12 (enough for the README's figures), for exact comparisons. */
function picos(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d{1,12}))?$/.exec(text.trim());
  if (!m) throw new Error(`not a decimal: ${text}`);
  const v = BigInt(m[2]!) * 10n ** 12n + BigInt((m[3] ?? '').padEnd(12, '0'));
  return m[1] ? -v : v;
}

/** Which folder's commands a file runs: the demo's (after npm start) or the real account's. */
export type ReadmePart = 'demo' | 'account';

export function readmeSuite(part: ReadmePart): void {
  describe(part === 'demo' ? 'README.md, step by step after npm start' : "README.md, a real account's commands", () => {
    const dir = tempDir('gpuledger-readme-').dir;
    const shims = join(dir, '.bin');
    // a user's shell: no key, no config or database chosen; `gpuledger` on the PATH as an installed package puts it
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      RUNPOD_API_KEY: '',
      GPULEDGER_CONFIG: '',
      GPULEDGER_DB: '',
      GPULEDGER_API_URL: '',
      GPULEDGER_SERVE_TOKEN: '',
      PATH: `${shims}${delimiter}${process.env.PATH ?? ''}`,
    };
    // unset rather than empty: an empty queue URL is an invalid one, and PGPASSWORD is the account folder's alone
    delete env.GPULEDGER_QUEUE_API_URL;
    delete env.PGPASSWORD;
    const work = join(dir, 'work');
    // the real account's folder: its own database, config (SMTP, recipients) and key
    const account = join(dir, 'account');
    let accountEnv: NodeJS.ProcessEnv = env;
    let sim: Simulator | undefined;
    let smtp: TestSmtp | undefined;
    let pg: TestPostgres | undefined;
    const pgPassword = `readme-${Math.random().toString(36).slice(2)}`;
    const havePostgres = requirePostgres();

    const shell = (command: string, options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Shell> =>
      new Promise((resolve) => {
        const child = spawn('bash', ['-c', command], { cwd: options.cwd ?? work, env: options.env ?? env, stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code: code ?? 1, stdout, stderr });
        });
      });

    /** Start a long-running command, wait for the URL it prints, hand it to `fn`, stop it. */
    const whileRunning = async (command: string, fn: (url: string, out: () => string) => Promise<void>) => {
      const child = spawn('bash', ['-c', command], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let out = '';
      try {
        const url = await new Promise<string>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no URL printed within 60 s:\n${out}`)), 60_000);
          const look = (d: Buffer) => {
            out += d.toString();
            const m = /https?:\/\/[^\s)]+/.exec(out);
            if (m) {
              clearTimeout(timer);
              resolve(m[0]);
            }
          };
          child.stdout.on('data', look);
          child.stderr.on('data', look);
          child.on('exit', (code) => reject(new Error(`exited with ${code} before answering:\n${out}`)));
        });
        await fn(url.replace('//0.0.0.0:', '//127.0.0.1:'), () => out);
      } finally {
        if (child.pid !== undefined && child.exitCode === null) {
          const exited = new Promise((resolve) => child.on('exit', resolve));
          process.kill(-child.pid, 'SIGTERM');
          await exited;
        }
      }
    };

    /** The README's stand-ins for the reader's servers and secrets, mapped to this test's (the rest stays as printed). */
    const mapped = (command: string): string => {
      let c = command.replace(/\/backup\//g, `${join(account, 'backup')}/`);
      if (pg) c = c.replace(/PGPASSWORD=…/g, `PGPASSWORD='${pgPassword}'`).replace(/(@|\/\/)bi-db(\.internal)?:5432\//g, (_m, before: string) => `${before}127.0.0.1:${pg!.port}/`);
      return c;
    };

    beforeAll(async () => {
      mkdirSync(shims);
      mkdirSync(work);
      mkdirSync(join(account, 'backup'), { recursive: true });
      writeFileSync(join(shims, 'gpuledger'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      writeFileSync(join(shims, 'duckdb.mjs'), DUCKDB_SHIM);
      writeFileSync(join(shims, 'duckdb'), `#!/bin/sh\nexec "${process.execPath}" "${join(shims, 'duckdb.mjs')}" "$@"\n`);
      for (const f of ['gpuledger', 'duckdb']) chmodSync(join(shims, f), 0o755);
      // npm start builds a stale dist/ first (npm test has just built it), then runs this
      expect(PACKAGE.scripts.start).toBe('node scripts/build.js --if-stale && node bin/gpuledger.js run --demo-if-no-key');
      if (part === 'demo') {
        const demo = await shell('gpuledger run --demo-if-no-key', { timeoutMs: 170_000 });
        expect(demo.stderr, demo.stderr).not.toMatch(/\berror\b/);
        expect(demo.code).toBe(0);
        // a command that names a shipped file (--config config/gpuledger.example.json, examples/images.csv) finds it as in a checkout
        for (const shipped of ['config', 'examples']) {
          if (examples.commands.some((c) => new RegExp(`(^|[\\s=])${shipped}/`).test(c.command))) cpSync(join(REPO, shipped), join(work, shipped), { recursive: true });
        }
        for (const [path, text] of Object.entries(READERS_FILES)) {
          mkdirSync(join(work, path, '..'), { recursive: true });
          writeFileSync(join(work, path), text);
        }
        for (const step of examples.setup) {
          const r = await shell(step.command);
          expect(r.code, `README line ${step.line}: ${step.command}\n${r.stderr}`).toBe(0);
        }
        return;
      }
      // the real parts of the account folder
      smtp = await startSmtp();
      sim = await startSimulator({ scale: 'small', keys: [DEFAULT_KEY, ...README_KEYS], quotas: { minute: 1e6, hour: 1e6, day: 1e6 } });
      if (havePostgres) {
        pg = await startPostgres();
        const client = await pg.connect();
        try {
          await client.query(`create role gpuledger login password '${pgPassword}'`);
          await client.query('create database analytics owner gpuledger');
        } finally {
          await client.end();
        }
      }
      accountEnv = { ...env, RUNPOD_API_KEY: DEFAULT_KEY, GPULEDGER_API_URL: sim!.url, GPULEDGER_QUEUE_API_URL: sim!.url, PGPASSWORD: pgPassword };
      writeFileSync(
        join(account, 'gpuledger.config.json'),
        JSON.stringify({
          smtp: { host: '127.0.0.1', port: smtp!.port, secure: false, from: 'gpuledger <finops@example.com>' },
          reports: { delivery: { 'finance-monthly': { recipients: ['finance@example.com'] }, nightly: { recipients: ['ops@example.com'] } } },
          // the rule the example config ships, as a reader who copied it has it (README, Guardrails)
          guardrails: JSON.parse(readFileSync(join(REPO, 'config', 'gpuledger.example.json'), 'utf8')).guardrails,
        }),
      );
    }, 240_000);
    afterAll(async () => {
      await Promise.all([sim?.close(), smtp?.close(), pg?.stop()]);
      rmSync(dir, { recursive: true, force: true });
    });

    if (part === 'demo') it('finds the examples: every row of the Commands table, the shell blocks, their printed output and the demo summary', () => {
      expect(examples.commands.filter((c) => c.from === 'table').length).toBeGreaterThanOrEqual(17);
      expect(examples.commands.filter((c) => c.from === 'code block').length).toBeGreaterThanOrEqual(5);
      expect(examples.commands.filter((c) => c.printed).length).toBeGreaterThanOrEqual(2);
      expect(examples.setup.some((s) => s.command.startsWith('cat > images.csv'))).toBe(true);
      expect(examples.others.some((o) => o.command.startsWith('duckdb -readonly'))).toBe(true);
      expect(demoSteps.length).toBeGreaterThan(0);
    });

    if (part === 'demo') it('shows the example config\'s allocation and budget in the demo: the report\'s By category section and budget line, allocation explain', async () => {
      const pages = readdirSync(join(work, 'out')).filter((f) => /^gpuledger-nightly-.*\.html$/.test(f));
      expect(pages).toHaveLength(1);
      const page = readFileSync(join(work, 'out', pages[0]!), 'utf8');
      expect(page).toContain('By category');
      for (const team of ['imaging', 'inference', 'research']) expect(page).toContain(team);
      expect(page).toMatch(/budget \$25,000\.00/);
      const explain = await shell('gpuledger allocation explain --category team --format csv');
      expect(explain.code).toBe(0);
      expect(explain.stdout).toMatch(/sdxl-image-api,imaging,1,endpoint=sdxl-image-api/);
    });

    if (part === 'demo') it('reads the demo database until a real one exists, saying so in one line; an explicit --db is never replaced', async () => {
      const r = await shell('gpuledger query "select distinct account from cost_daily" --format csv');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^account\r?\ndemo\r?\n$/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/using the demo database data\/demo\.duckdb \(simulated data\): data\/gpuledger\.duckdb does not exist yet/);
      const explicit = await shell('gpuledger --db data/gpuledger.duckdb query "select 1"');
      expect(explicit.code).toBe(2);
      expect(explicit.stderr).toMatch(/database data\/gpuledger\.duckdb does not exist yet/);
      expect(explicit.stderr).not.toMatch(/using the demo database/);
      const fromEnv = await shell('GPULEDGER_DB=data/gpuledger.duckdb gpuledger query "select 1"');
      expect(fromEnv.code).toBe(2);
    });

    if (part === 'demo') it('report --email on the demo writes both files first, then says in one warning that the demo is never emailed (exit 3)', async () => {
      const r = await shell('gpuledger report --report finance-monthly --period 2026-10 --format both --email');
      expect(r.code, r.stderr).toBe(3);
      const files = r.stdout.trim().split('\n');
      expect(files.map((f) => f.replace(/.*\//, ''))).toEqual(['gpuledger-finance-monthly-2026-10.xlsx', 'gpuledger-finance-monthly-2026-10.html']);
      for (const f of files) expect(existsSync(f)).toBe(true);
      const warnings = r.stderr.split('\n').filter((l) => /\bwarn\b/.test(l));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/not emailed: the demo database is never emailed .*; the files above are written$/);
    });

    if (part === 'demo') it('alerts mute refuses a key naming no account of the database, and mutes one no alert has had yet with a warning', async () => {
      const foreign = await shell('gpuledger alerts mute anomaly:prod:driver:cluster:nizud81x2t2sgc --for 7d');
      expect(foreign.code).toBe(2);
      expect(foreign.stderr).toMatch(/'anomaly:prod:driver:cluster:nizud81x2t2sgc' matches no alert recorded here and names no account of this database \(demo\)/);
      const ahead = await shell('gpuledger alerts mute anomaly:demo:driver:pod:not-yet-anomalous --for 1h');
      expect(ahead.code).toBe(0);
      expect(ahead.stderr).toMatch(/warning: no alert has had the key anomaly:demo:driver:pod:not-yet-anomalous yet/);
      expect((await shell('gpuledger alerts unmute anomaly:demo:driver:pod:not-yet-anomalous')).code).toBe(0);
    });

    // a command shown more than once (gpuledger views, store check…) runs once, at its first place, naming every place
    const places = new Map<string, { example: ReadmeCommand; where: string[] }>();
    for (const example of [...examples.commands, ...examples.others, ...demoSteps].sort((a, b) => (a.line || Infinity) - (b.line || Infinity))) {
      const key = `${example.command}\0${example.expectCode}`;
      const place = example.line ? `README line ${example.line}` : 'the demo summary';
      const seen = places.get(key);
      if (seen) seen.where.push(place);
      else places.set(key, { example, where: [place] });
    }
    const counted = { run: 0, skipped: 0 };

    for (const { example, where: shownAt } of places.values()) {
      const where = shownAt.join(', ');
      const oneLine = example.command.replace(/\s*\\?\n\s*/g, ' ');
      const inAccount = ACCOUNT.find((a) => a.match.test(example.command));
      const skip = CANNOT_RUN.find((s) => s.match.test(example.command) && !(inAccount && havePostgres && /PGPASSWORD=…/.test(example.command)));
      if (skip) {
        counted.skipped++;
        if (part === 'demo') it.skip(`${where}: ${oneLine} – not run: ${skip.reason}`, () => {});
        continue;
      }
      counted.run++;
      // the real account's commands, and the export of a key then npm start (a folder of its own, the simulator): the
      // account's file; every other command reads or changes the demo's folder
      if ((inAccount || KEY_EXPORT.test(example.command) ? 'account' : 'demo') !== part) continue;
      if (IS_NPM_START.test(example.command)) {
        it(`${where}: ${oneLine} – what beforeAll ran in this folder (the demo: no key set)`, () => {
          expect(existsSync(join(work, 'data', 'demo.duckdb'))).toBe(true);
        });
        continue;
      }
      const keyed = KEY_EXPORT.exec(example.command);
      if (keyed) {
        // the block as a reader types it: the export, then the next line of the same block (npm start)
        const next = [...examples.commands, ...examples.others].find((c) => c.line === example.line + 1);
        it(`${where}: ${oneLine} then \`${next?.command}\` – a real account's first run, against the simulator taking that key`, async () => {
          expect(next && IS_NPM_START.test(next.command), 'the export is followed by npm start in its block').toBe(true);
          const folder = join(dir, 'keyed');
          mkdirSync(folder, { recursive: true });
          // npm start's own command after its build step (npm test has just built dist/)
          const start = PACKAGE.scripts.start!.replace(/^node scripts\/build\.js --if-stale && node bin\/gpuledger\.js /, 'gpuledger ');
          const r = await shell(`${example.command} && ${start}`, { cwd: folder, env: { ...env, GPULEDGER_API_URL: sim!.url, GPULEDGER_QUEUE_API_URL: sim!.url }, timeoutMs: 170_000 });
          expect(r.code, `stdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`).toBe(0);
          // with a key, npm start is the account's nightly job into the account's database, and no demo is made
          expect(existsSync(join(folder, 'data', 'gpuledger.duckdb'))).toBe(true);
          expect(existsSync(join(folder, 'data', 'demo.duckdb'))).toBe(false);
          expect(r.stdout + r.stderr).not.toContain(keyed[1]!);
        }, 180_000);
        continue;
      }
      if (/^python -c /.test(example.command)) {
        // python's duckdb module is not installed here: the same file and SQL through the same engine
        it(`${where}: ${oneLine} reads the file it names, read-only, with DuckDB`, async () => {
          const m = /duckdb\.connect\('([^']+)', read_only=True\)\.sql\('([^']+)'\)/.exec(example.command);
          expect(m, 'the python line connects read-only and runs one query').not.toBeNull();
          const r = await shell(`duckdb -readonly ${m![1]} "${m![2]}"`);
          expect(r.code, r.stderr).toBe(0);
          expect(r.stdout.trim().split('\n').length).toBeGreaterThan(0);
        }, 90_000);
        continue;
      }
      if (inAccount) {
        it(`${where}: ${oneLine} exits ${example.expectCode} – ${inAccount.why}`, async () => {
          if (/^export PGPASSWORD=/.test(example.command)) {
            // the block's first line: the shell of the next command has it (accountEnv.PGPASSWORD)
            expect(accountEnv.PGPASSWORD).toBe(pgPassword);
            return;
          }
          if (/\bexport\s+postgres\b/.test(example.command) && !pg) return;
          const mailsBefore = smtp!.received.length;
          const r = await shell(mapped(example.command), { cwd: account, env: accountEnv, timeoutMs: 170_000 });
          expect(r.code, `${example.command}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`).toBe(example.expectCode);
          if (/\s--email\b/.test(example.command)) {
            const mails = smtp!.received.slice(mailsBefore);
            expect(mails).toHaveLength(1);
            expect(mails[0]!.to).toEqual(['finance@example.com']);
            expect(mails[0]!.raw.toString('latin1')).toContain('gpuledger-finance-monthly-2026-10.xlsx');
          }
          if (example.printed) {
            // the printed line with its figures as any figures, and the README's server as this test's
            const printed = mapped(example.printed[0]!);
            const pattern = printed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\d+/g, '\\d+');
            expect(r.stderr + r.stdout).toMatch(new RegExp(pattern));
          }
        }, 180_000);
        continue;
      }
      if (LONG_RUNNING.test(example.command)) {
        it(`${where}: ${oneLine} starts and answers`, async () => {
          // a free port instead of the README's, so parallel runs never collide
          const command = /--port\s+\d+/.test(example.command) ? example.command.replace(/--port\s+\d+/, '--port 0') : `${example.command} --port 0`;
          await whileRunning(command, async (url, out) => {
            const res = await fetch(url);
            await res.arrayBuffer();
            // serve answers its page (or asks a remote caller for the token); the simulator answers anything, faults included
            if (/\bserve\b/.test(command)) expect(res.status, out()).toBeLessThan(500);
            expect(res.status).toBeGreaterThan(0);
          });
        }, 90_000);
        continue;
      }
      it(`${where}: ${oneLine} exits ${example.expectCode}${example.printed ? ' and prints what the README shows' : ''}`, async () => {
        const r = await shell(example.command);
        expect(r.code, `${example.command}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`).toBe(example.expectCode);
        if (/--as-of/.test(example.command)) expect(r.stderr).not.toMatch(/nothing had been loaded by/);
        // the README's mute key is one of the demo's alerts, not a key the reader must first find
        if (/\balerts\s+mute\b/.test(example.command)) expect(r.stderr).not.toMatch(/no alert has had the key/);
        if (/^duckdb /.test(example.command)) expect(r.stdout.trim().split('\n').length).toBeGreaterThan(0);
        if (example.printed && /rpt_unit_cost/.test(example.command)) {
          // the demo's amounts are drawn from the moment it first ran, so the README's figure is one demo's; what holds
          // on every demo is compared: the day and the quantity images.csv gave, the cost is the endpoint's billing that
          // day, the unit cost that cost ÷ the quantity exactly – and the README's own line obeys the same division
          const [day, cost, quantity, unit] = example.printed[0]!.split('←')[0]!.trim().split(/\s+/);
          expect(picos(unit!) * picos(quantity!)).toBe(picos(cost!) * 10n ** 12n);
          expect(example.printed[0]).toContain(`$${Number(cost).toFixed(2)} of endpoint billing ÷ ${quantity} images`);
          expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
          const rows = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as { day: string; cost: number; quantity: number; unit_cost: number });
          const csv = readFileSync(join(work, 'images.csv'), 'utf8').trim().split('\n')[1]!.split(',');
          const first = rows.find((row) => row.day === csv[0]);
          expect(first, `a row for ${csv[0]}, the first day of images.csv: ${r.stdout}`).toBeDefined();
          expect(first!.quantity).toBe(Number(quantity));
          const exact = await shell(
            `gpuledger query "select cost::varchar as cost, quantity::varchar as quantity, unit_cost::varchar as unit_cost, (select sum(amount)::varchar from cost_daily where endpoint_name = 'sdxl-image-api' and day = '${first!.day}') as billed from rpt_unit_cost where metric = 'images' and day = '${first!.day}'" --format json`,
          );
          const [row] = JSON.parse(exact.stdout) as { cost: string; quantity: string; unit_cost: string; billed: string }[];
          expect(row!.cost).toBe(row!.billed);
          // unit_cost is rounded by DuckDB's DECIMAL division: within one unit of its last digit
          const scale = 10n ** BigInt(row!.unit_cost.split('.')[1]?.length ?? 0);
          const diff = picos(row!.unit_cost) * picos(row!.quantity) - picos(row!.cost) * 10n ** 12n;
          expect(diff < 0n ? -diff : diff).toBeLessThanOrEqual((picos(row!.quantity) * 10n ** 12n) / scale);
        }
      }, 90_000);
    }

    // before the restore below, which brings back a copy from before the README imported images.csv
    if (part === 'demo') it('the explorer divides by the metric the README imports for one endpoint: /explore?metric=unit_cost:images', async () => {
      await whileRunning('gpuledger serve --port 0', async (url) => {
        const base = new URL(url).origin;
        const page = await fetch(`${base}/explore?metric=unit_cost:images&preset=7d`);
        const text = await page.text();
        expect(page.status, text.slice(0, 500)).toBe(200);
        expect(text).toContain('the endpoint sdxl-image-api&#39;s images');
        const csv = (await (await fetch(`${base}/explore.csv?metric=unit_cost:images&preset=7d`)).text()).trim().split(/\r?\n/);
        const [, quantity] = readFileSync(join(work, 'images.csv'), 'utf8').trim().split('\n')[1]!.split(',').slice(1);
        expect(csv[0]).toBe('period_start,family_key,family_name,amount,quantity,unit_cost');
        expect(csv.some((l) => l.includes(`,serverless,Serverless,`) && l.includes(`,${quantity}.000000,`))).toBe(true);
      });
    }, 90_000);

    if (part === 'demo') it('store restore --from the copy a restore set aside (data/demo.duckdb.aside-…) restores the demo, as the warning says', async () => {
      const aside = readdirSync(join(work, 'data')).filter((f) => f.startsWith('demo.duckdb.aside-'));
      expect(aside.length, 'the README\'s store restore examples set copies aside').toBeGreaterThan(0);
      const r = await shell(`gpuledger store restore --from data/${aside[0]}`);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`restored data/${aside[0]!.replace(/[.]/g, '\\.')} \\(aside`));
      expect(existsSync(join(work, 'data', 'gpuledger.duckdb'))).toBe(false);
    });

    if (part === 'demo') it('counts what it ran: every README command runs but what truly cannot (the suite itself)', () => {
      process.stderr.write(`README commands: ${counted.run} run, ${counted.skipped} not run (listed as skipped with the reason)\n`);
      expect(counted.skipped).toBeLessThanOrEqual(1);
    });
  });
}
