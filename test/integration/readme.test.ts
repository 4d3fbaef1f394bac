// Every step of README.md works for a new user right after the demo (issue 25 §6): in a fresh folder, `npm start`
// without a key (node bin/gpuledger.js run --demo-if-no-key), then each `gpuledger …` command the README shows – its
// shell code blocks and the Commands table – as a shell runs it, expecting the exit code the README promises (0 unless
// a comment on the command says `exit N`). The commands are read from README.md at test time, so a line added to the
// README is tested without touching this file; the few that cannot run here are listed below with the reason, and
// the long-running ones (serve, simulator) are started, asked for a page and stopped. The demo's own "try next"
// commands are run the same way.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_NEXT_STEPS } from '../../src/cli/commands/run.ts';
import { readmeExamples, type ReadmeCommand } from '../helpers/readme-examples.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const BIN = fileURLToPath(new URL('../../bin/gpuledger.js', import.meta.url));
const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };

/** Commands that cannot run in a test, and why. Anything else the README shows must run as promised. */
const CANNOT_RUN: readonly { match: RegExp; reason: string }[] = [
  { match: /\bgpuledger\s+sync\b(?!.*--plan)/s, reason: 'reads a platform account: needs a real API key (sync against the simulator: test/integration/sync-cli.test.ts)' },
  { match: /\bgpuledger\s+run\b(?!.*--demo)/s, reason: 'the nightly job of a real account needs a real API key (the demo is what npm start ran above)' },
  { match: /\s--email\b/, reason: 'sends email: needs an SMTP server (delivery is tested against a real one in test/report)' },
  { match: /\bexport\s+postgres\b/, reason: 'needs a PostgreSQL server and its password (test/export/postgres starts one)' },
  { match: /\bgpuledger\s+schedule\b(?!.*--list)/s, reason: 'the daemon runs until stopped' },
  { match: /…|<[a-z][\w-]*>/i, reason: 'a template with a placeholder (… or <name>) for the reader to fill in' },
  { match: /\s\/(backup|srv|etc|var|home|opt|mnt)\//, reason: 'names a path on the reader\'s machine (a backup, a service folder)' },
];
/** Run until stopped: started on a free port, asked for the page they print, then stopped. */
const LONG_RUNNING = /\bgpuledger\s+(serve|simulator)\b/;
/** Files of the reader's own that an example joins; the README cannot create them for the reader. */
const READERS_FILES: Record<string, string> = {
  'finance/teams.csv': 'pod_id,team\nzzkjmbh9u9fguk,research\n',
};

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

describe('README.md, step by step after npm start', () => {
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
  const work = join(dir, 'work');

  const shell = (command: string, timeoutMs = 90_000): Promise<Shell> =>
    new Promise((resolve) => {
      const child = spawn('bash', ['-c', command], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code: code ?? 1, stdout, stderr });
      });
    });

  beforeAll(async () => {
    mkdirSync(shims);
    mkdirSync(work);
    writeFileSync(join(shims, 'gpuledger'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
    chmodSync(join(shims, 'gpuledger'), 0o755);
    // npm start builds a stale dist/ first (npm test has just built it), then runs this
    expect(PACKAGE.scripts.start).toBe('node scripts/build.js --if-stale && node bin/gpuledger.js run --demo-if-no-key');
    const demo = await shell('gpuledger run --demo-if-no-key', 170_000);
    expect(demo.stderr, demo.stderr).not.toMatch(/\berror\b/);
    expect(demo.code).toBe(0);
    // a command that names the shipped example config (--config config/gpuledger.example.json) finds it as in a checkout
    if (examples.commands.some((c) => /(^|[\s=])config\//.test(c.command))) cpSync(fileURLToPath(new URL('../../config/', import.meta.url)), join(work, 'config'), { recursive: true });
    for (const [path, text] of Object.entries(READERS_FILES)) {
      mkdirSync(join(work, path, '..'), { recursive: true });
      writeFileSync(join(work, path), text);
    }
    for (const step of examples.setup) {
      const r = await shell(step.command);
      expect(r.code, `README line ${step.line}: ${step.command}\n${r.stderr}`).toBe(0);
    }
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the examples: every row of the Commands table, the shell blocks and the demo summary', () => {
    expect(examples.commands.filter((c) => c.from === 'table').length).toBeGreaterThanOrEqual(15);
    expect(examples.commands.filter((c) => c.from === 'code block').length).toBeGreaterThanOrEqual(5);
    expect(examples.setup.some((s) => s.command.startsWith('cat > images.csv'))).toBe(true);
    expect(demoSteps.length).toBeGreaterThan(0);
  });

  it('shows the example config\'s allocation and budget in the demo: the report\'s By category section and budget line, allocation explain', async () => {
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

  it('reads the demo database until a real one exists, saying so in one line; an explicit --db is never replaced', async () => {
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

  // a command shown more than once (gpuledger views, store check…) runs once, at its first place, naming every place
  const places = new Map<string, { example: ReadmeCommand; where: string[] }>();
  for (const example of [...examples.commands, ...demoSteps]) {
    const key = `${example.command}\0${example.expectCode}`;
    const place = example.line ? `README line ${example.line}` : 'the demo summary';
    const seen = places.get(key);
    if (seen) seen.where.push(place);
    else places.set(key, { example, where: [place] });
  }

  for (const { example, where: shownAt } of places.values()) {
    const where = shownAt.join(', ');
    const oneLine = example.command.replace(/\s*\\?\n\s*/g, ' ');
    const skip = CANNOT_RUN.find((s) => s.match.test(example.command));
    if (skip) {
      it.skip(`${where}: ${oneLine} – not run: ${skip.reason}`, () => {});
      continue;
    }
    if (LONG_RUNNING.test(example.command)) {
      it(`${where}: ${oneLine} starts and answers`, async () => {
        // a free port instead of the README's, so parallel runs never collide
        const command = /--port\s+\d+/.test(example.command) ? example.command.replace(/--port\s+\d+/, '--port 0') : `${example.command} --port 0`;
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
          const res = await fetch(url.replace('//0.0.0.0:', '//127.0.0.1:'));
          await res.arrayBuffer();
          // serve answers its page (or asks a remote caller for the token); the simulator answers anything, faults included
          if (/\bserve\b/.test(command)) expect(res.status, out).toBeLessThan(500);
          expect(res.status).toBeGreaterThan(0);
        } finally {
          if (child.pid !== undefined && child.exitCode === null) {
            const exited = new Promise((resolve) => child.on('exit', resolve));
            process.kill(-child.pid, 'SIGTERM');
            await exited;
          }
        }
      }, 90_000);
      continue;
    }
    it(`${where}: ${oneLine} exits ${example.expectCode}`, async () => {
      const r = await shell(example.command);
      expect(r.code, `${example.command}\nstdout: ${r.stdout.slice(-2000)}\nstderr: ${r.stderr.slice(-2000)}`).toBe(example.expectCode);
    }, 90_000);
  }
});
