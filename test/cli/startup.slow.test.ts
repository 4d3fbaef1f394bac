// Start-up (issue 11 item 3): --version and --help load none of the commands' heavy dependencies, and bin/ never
// runs a dist/ older than the sources. Speed itself is measured in bench/startup.ts, never asserted here.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SIMULATOR_KEYS } from '../../src/cli/commands/simulator.ts';
import { SOURCES } from '../../src/config/sync.ts';
import { DEFAULT_KEY, DEFAULT_READONLY_KEY, DEFAULT_RESTRICTED_KEY } from '../../src/simulator/index.ts';
import { gpuledger } from '../helpers/cli.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TRACE = fileURLToPath(new URL('./trace-imports.mjs', import.meta.url));
const HEAVY = ['@duckdb', 'exceljs', 'nodemailer', '@resvg', 'undici', 'zod', 'node-cron', 'yaml', '/simulator/start', '/report/render'];

function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('start-up', () => {
  const dir = tempDir('gpuledger-startup-').dir;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['--version', '--help', 'query --help', 'report --help', 'sync --help'])(
    'gpuledger %s loads no DuckDB, exceljs, nodemailer, resvg, undici, zod or simulator',
    async (command) => {
      const args = command.split(' ');
      const trace = join(dir, `trace-${args.join('-')}.txt`);
      const r = await gpuledger(args, { GPULEDGER_TRACE_IMPORTS: trace, NODE_OPTIONS: `--import ${TRACE}` });
      expect(r.code).toBe(0);
      const loaded = readFileSync(trace, 'utf8').trim().split('\n');
      // the trace works; --version is answered by bin/ from package.json before the CLI itself loads
      if (command === '--version') expect(loaded.some((u) => u.includes('/cli/main.'))).toBe(false);
      else expect(loaded.some((u) => u.includes('/cli/main.'))).toBe(true);
      expect(loaded.filter((u) => HEAVY.some((h) => u.includes(h)))).toEqual([]);
    },
  );

  it('lists every sync source in sync --help, which spells them out to avoid loading zod', async () => {
    const r = await gpuledger(['sync', '--help']);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(`(${SOURCES.join(', ')})`);
  });

  it('defaults the simulator to the keys the simulator itself defaults to', () => {
    expect(DEFAULT_SIMULATOR_KEYS).toEqual({ full: DEFAULT_KEY, restricted: DEFAULT_RESTRICTED_KEY, readOnly: DEFAULT_READONLY_KEY });
  });

  describe('bin/gpuledger.js in a checkout', () => {
    // a checkout in miniature: the real bin, a dist/ and a src/ whose main() say which one ran
    const root = join(dir, 'checkout');
    mkdirSync(join(root, 'bin'), { recursive: true });
    mkdirSync(join(root, 'dist', 'cli'), { recursive: true });
    mkdirSync(join(root, 'src', 'cli'), { recursive: true });
    copyFileSync(join(REPO, 'bin', 'gpuledger.js'), join(root, 'bin', 'gpuledger.js'));
    writeFileSync(join(root, 'package.json'), '{"type":"module"}');
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
    writeFileSync(join(root, 'dist', 'cli', 'main.js'), "export async function main() { console.log('dist'); return 0; }\n");
    writeFileSync(join(root, 'src', 'cli', 'main.ts'), "export async function main(): Promise<number> { console.log('src'); return 0; }\n");
    const stamp = join(root, 'dist', '.build-stamp');
    const bin = join(root, 'bin', 'gpuledger.js');
    const at = (file: string, seconds: number) => utimesSync(file, seconds, seconds);

    it('runs dist/ when the build is newer than every source', async () => {
      writeFileSync(stamp, '');
      at(join(root, 'src', 'cli', 'main.ts'), 1_000_000);
      at(stamp, 2_000_000);
      expect((await run(bin, [])).stdout).toBe('dist\n');
    });

    it('runs the sources when one is newer than the build, or there is no build stamp', async () => {
      at(join(root, 'src', 'cli', 'main.ts'), 3_000_000);
      expect((await run(bin, [])).stdout).toBe('src\n');
      rmSync(stamp);
      expect((await run(bin, [])).stdout).toBe('src\n');
    });

    it('runs dist/ in an installed package, which has no src/', async () => {
      rmSync(join(root, 'src'), { recursive: true });
      expect((await run(bin, [])).stdout).toBe('dist\n');
    });
  });
});
