// A real, throwaway PostgreSQL server for tests and benchmarks: a cluster made with `initdb` in a temp folder,
// password (SCRAM) authentication for one test superuser – trust would let a wrong password in, and that case must be
// testable – listening on a free loopback port, its unix socket in the same temp folder. stop() shuts it down and
// removes the folder; restart() brings the same cluster back (a server that went away mid-export, then returned).
//
// Running as root (here and in CI): PostgreSQL refuses to start as root ("root execution of the PostgreSQL server is
// not permitted"). The binaries then run as an unprivileged user via spawn's uid/gid (libuv drops root's
// supplementary groups too) – the `postgres` system user that Debian's package creates, else `nobody` – and the temp
// folder is chowned to that user. /tmp is world-writable and sticky, so that user can reach the folder; nothing else
// of the caller's is shared with the server.
//
// A server outlives nothing: stop() shuts it down, and so does the exit of the process that started it without
// calling stop() (a failed test run, a benchmark cut short) – an 'exit' hook stops it synchronously and removes the
// folder. Only SIGKILL of that process escapes the hook; PostgreSQL then shuts itself down within a minute or so of
// finding its data folder gone, once the temp folder is cleaned.
//
// Where the binaries are: `initdb` on PATH, else the newest /usr/lib/postgresql/<version>/bin (Debian keeps them
// off PATH). postgresAvailable() says whether they were found; with CI set, a test file must fail rather than skip
// without them (.ci/run installs the `postgresql` package) – requirePostgres() decides.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { tempDir, type TempDir } from './temp-dir.ts';

export interface TestPostgres {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** postgres://user@127.0.0.1:port/database – no password, as gpuledger wants it. */
  url: string;
  dataDir: string;
  /** Stop the server (mode fast: sessions are cut, like a server going away); the cluster stays for restart(). */
  halt(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Start the same cluster again on the same port. */
  restart(): Promise<void>;
  /** Stop and remove everything. */
  stop(): Promise<void>;
  /** A client connected as the test superuser (the caller ends it). */
  connect(): Promise<pg.Client>;
}

const SEARCH = '/usr/lib/postgresql';

/** The folder holding initdb and pg_ctl, or undefined when PostgreSQL is not installed. */
export function postgresBinDir(): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  if (!existsSync(SEARCH)) return undefined;
  const versions = readdirSync(SEARCH)
    .filter((v) => existsSync(join(SEARCH, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(SEARCH, versions[0], 'bin') : undefined;
}

export function postgresAvailable(): boolean {
  return postgresBinDir() !== undefined;
}

/**
 * Whether a test file may run its PostgreSQL tests: true when the binaries are there; false (skip, with a reason on
 * stderr) when they are not on a developer's machine; an error under CI, where skipping would hide a missing install.
 */
export function requirePostgres(): boolean {
  if (postgresAvailable()) return true;
  if (process.env.CI) throw new Error('PostgreSQL (initdb, pg_ctl) is not installed, and CI must run the PostgreSQL tests: .ci/run installs the postgresql package');
  process.stderr.write('PostgreSQL tests skipped: initdb/pg_ctl not found (apt-get install postgresql)\n');
  return false;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** The unprivileged user the server runs as when we are root; undefined when we are not root. */
function runAs(): RunAs | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
      if (Number.isInteger(uid) && uid > 0) return { uid, gid };
    } catch {
      /* no such user: try the next */
    }
  }
  throw new Error('running as root, and neither a postgres nor a nobody user exists to run PostgreSQL as');
}

function run(bin: string, args: string[], as: RunAs | undefined, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      ...(as ?? {}),
      // the caller's folder may be closed to the server's user (a checkout under /root): work from our own
      cwd,
      // LC_ALL=C: initdb's locale check must not depend on the caller's environment
      env: { PATH: process.env.PATH, LC_ALL: 'C', LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${bin} ${args.join(' ')} exited ${code}: ${out.trim()}`))));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface StartOptions {
  /** Durability off (fsync, synchronous_commit) – fine for a throwaway cluster, and it keeps tests quick. */
  durable?: boolean;
}

export async function startPostgres(options: StartOptions = {}): Promise<TestPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL is not installed (initdb not found on PATH or under /usr/lib/postgresql)');
  const as = runAs();
  const root = tempDir('gpuledger-pg-').dir;
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  mkdirSync(socketDir);
  const user = 'gpuledger_test';
  const password = `pw-${Math.random().toString(36).slice(2)}-test`;
  const pwfile = join(root, 'pwfile');
  writeFileSync(pwfile, password + '\n');
  chmodSync(root, 0o700);
  if (as) {
    for (const p of [root, socketDir, pwfile]) chownSync(p, as.uid, as.gid);
  }
  const durability = options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'];
  let port = 0;
  const serverArgs = () => ['-p', String(port), '-k', socketDir, '-h', '127.0.0.1', ...durability].map((a) => (a.includes(' ') ? `'${a}'` : a)).join(' ');
  const start = async () => {
    await run(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(root, 'server.log'), '-o', serverArgs(), '-w', '-t', '60', 'start'], as, root);
  };
  const halt = async (mode: 'fast' | 'immediate' = 'fast') => {
    await run(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop'], as, root);
  };
  try {
    await run(join(bin, 'initdb'), ['-D', dataDir, '-U', user, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-instructions'], as, root);
    rmSync(pwfile);
    // a port can be taken between the probe and the server's bind: try a few
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        await start();
        break;
      } catch (e) {
        if (attempt >= 3) throw e;
      }
    }
  } catch (e) {
    const log = existsSync(join(root, 'server.log')) ? readFileSync(join(root, 'server.log'), 'utf8').slice(-2000) : '';
    rmSync(root, { recursive: true, force: true });
    throw new Error(`could not start a test PostgreSQL: ${(e as Error).message}${log ? `\n${log}` : ''}`);
  }
  const database = 'postgres';
  let stopped = false;
  const onExit = () => {
    spawnSync(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop'], { ...(as ?? {}), cwd: root, stdio: 'ignore' });
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    database,
    url: `postgres://${user}@127.0.0.1:${port}/${database}`,
    dataDir,
    halt,
    restart: start,
    async connect() {
      const client = new pg.Client({ host: '127.0.0.1', port, user, password, database });
      client.on('error', () => {});
      await client.connect();
      return client;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      process.removeListener('exit', onExit);
      try {
        await halt('immediate');
      } catch {
        /* already down */
      }
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** A test PostgreSQL to export into, a client on it, and a temp folder whose database (`tmp.db`) holds what to export. */
export interface PostgresExportFixture {
  server: TestPostgres;
  client: pg.Client;
  tmp: TempDir;
  /** Ends the client, stops the server and removes the folder. */
  stop(): Promise<void>;
}

/**
 * Starts a server, connects a client and makes a temp folder whose database `fill` writes (the run's synced database,
 * copied: this file stays free of the test-runner helpers, as the export benchmark imports it). A step that fails
 * undoes the ones before it.
 */
export async function postgresExportFixture(prefix: string, fill: (db: string) => Promise<void>): Promise<PostgresExportFixture> {
  const server = await startPostgres();
  const tmp = tempDir(prefix);
  let client: pg.Client | undefined;
  const fixture: PostgresExportFixture = {
    server,
    tmp,
    get client() {
      if (!client) throw new Error('the fixture\'s client is not connected yet');
      return client;
    },
    // a test may connect anew (after a restart): the one it set is the one stop() ends
    set client(c: pg.Client) {
      client = c;
    },
    async stop() {
      await client?.end().catch(() => {});
      await server.stop();
      tmp.cleanup();
    },
  };
  try {
    client = await server.connect();
    await fill(tmp.db);
    return fixture;
  } catch (e) {
    await fixture.stop();
    throw e;
  }
}
