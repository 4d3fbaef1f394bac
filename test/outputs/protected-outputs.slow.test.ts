// A command writes only what it made (issue 18 §1), through the real CLI: every output – query --out, export focus
// --out, export lake --out, report --out-dir (of a report and of a saved view) and the alert file channel's path
// from the config – aimed at the store's files in every spelling (relative, with `..`, through a symlink, as a hard
// link), each row at another kind of store file so the rows reach all nine. Each row expects exit 2, one line on
// stderr naming the flag, the path and what it would have hit, and the store's bytes untouched. Every kind × spelling
// × check runs in-process against the one guard the commands call (output-guard.test.ts), so the CLI rows need not
// repeat the whole product (180 CLI starts, ~50 CPU-s). Then the cases from the issue: a home folder and `.` as a lake.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuledger, type CliResult } from '../helpers/cli.ts';
import { DB_NAME, digest, layOutStoreFiles, PROTECTED, spelled, SPELLINGS } from '../helpers/protected-store-files.ts';
import { billPods, viewStore } from '../helpers/view-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('gpuledger-protected-').dir;
const db = join(dir, DB_NAME);

interface Output {
  name: string;
  run(path: string, row: string): Promise<CliResult>;
  flag: (path: string) => RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const at = (cwd: string) => (args: string[], env: NodeJS.ProcessEnv = {}) => gpuledger(['--db', db, ...args], env, { cwd });

const OUTPUTS: Output[] = [
  { name: 'query --out', run: (p) => at(dir)(['query', 'select 1 as x', '--format', 'csv', '--out', p]), flag: (p) => new RegExp(`--out ${escape(p)} is `) },
  { name: 'query --format parquet --out', run: (p) => at(dir)(['query', 'select 1 as x', '--format', 'parquet', '--out', p]), flag: (p) => new RegExp(`--out ${escape(p)} is `) },
  { name: 'query --format xlsx --out', run: (p) => at(dir)(['query', 'select 1 as x', '--format', 'xlsx', '--out', p]), flag: (p) => new RegExp(`--out ${escape(p)} is `) },
  { name: 'export focus --out', run: (p) => at(dir)(['export', 'focus', '--out', p]), flag: (p) => new RegExp(`--out ${escape(p)} is `) },
  { name: 'export lake --out', run: (p) => at(dir)(['export', 'lake', '--out', p]), flag: (p) => new RegExp(`--out ${escape(p)} is `) },
  { name: 'report --out-dir', run: (p) => at(dir)(['report', '--out-dir', p]), flag: (p) => new RegExp(`--out-dir ${escape(p)} is `) },
  {
    name: 'report --view --out-dir',
    run: (p, row) => {
      const config = join(dir, 'configs', `${row.replace(/[^a-z0-9]+/gi, '-')}.json`);
      writeFileSync(config, JSON.stringify({ views: [{ name: 'pods', title: 'Pods', by: ['template'] }] }));
      return at(dir)(['--config', config, 'report', '--view', 'pods', '--out-dir', p]);
    },
    flag: (p) => new RegExp(`--out-dir ${escape(p)} is `),
  },
  {
    name: 'the alert file channel',
    run: (p, row) => {
      const config = join(dir, 'configs', `${row.replace(/[^a-z0-9]+/gi, '-')}.json`);
      writeFileSync(config, JSON.stringify({ alerts: { channels: [{ type: 'stdout' }, { type: 'file', path: p }] } }));
      return at(dir)(['--config', config, 'alerts']);
    },
    // the config's path resolves against the working folder, and the message shows it resolved
    flag: () => /config alerts\.channels\[1\]\.path \/\S+ is /,
  },
];

let bytes: Map<string, string>;
let listing: string[];
const list = () => readdirSync(dir).sort();

beforeAll(async () => {
  const store = await viewStore(db);
  await billPods(store, [{ pod: 'p1', start: '2026-10-01T00:00:00Z', gpu: '1.500000' }]);
  await store.close();
  mkdirSync(join(dir, 'configs'));
  bytes = layOutStoreFiles(dir);
  listing = list();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('no output lands on the store\'s files', () => {
  // every output in every spelling; the kind of store file turns with the row, so the 20 rows reach all nine kinds
  const rows = OUTPUTS.flatMap((output, o) =>
    SPELLINGS.map((how, h) => {
      const [suffix, role] = PROTECTED[(o * SPELLINGS.length + h) % PROTECTED.length]!;
      return { output, suffix, role, how };
    }),
  );
  it.concurrent.each(rows.map((r) => [`${r.output.name} → <db>${r.suffix} (${r.how})`, r] as const))(
    '%s is refused with exit 2 and one line, and the file is intact',
    async (row, { output, suffix, role, how }) => {
      const path = spelled(suffix, how);
      const r = await output.run(path, row);
      expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 2, stderr: expect.stringMatching(/^gpuledger: [^\n]+\n$/) });
      expect(r.stderr).toMatch(output.flag(path));
      expect(r.stderr).toMatch(role);
      if (how === 'hard link') expect(r.stderr).toMatch(/a hard link to /);
      const target = join(dir, `${DB_NAME}${suffix}`);
      expect(digest(target)).toBe(bytes.get(target));
    },
  );

  it('left every protected file as it was and nothing new beside the database', () => {
    for (const [path, hash] of bytes) expect(`${path} ${digest(path)}`).toBe(`${path} ${hash}`);
    expect(list()).toEqual(listing);
  });

  it('refuses to replace an existing folder with a file (query and export focus)', async () => {
    mkdirSync(join(dir, 'elsewhere', 'result.csv'));
    for (const args of [['query', 'select 1 as x', '--out', 'elsewhere/result.csv'], ['export', 'focus', '--out', 'elsewhere/result.csv']]) {
      const r = await at(dir)(args);
      expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 2, stderr: expect.stringMatching(/^gpuledger: --out elsewhere\/result\.csv is a folder; pass a file name[^\n]*\n$/) });
    }
    expect(readdirSync(join(dir, 'elsewhere', 'result.csv'))).toEqual([]);
  });
});

describe('a lake only in a folder of its own', () => {
  const home = tempDir('gpuledger-home-').dir;
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('refuses a home folder, naming the first entry that is not a lake\'s, and leaves it as it was', async () => {
    mkdirSync(join(home, 'home'));
    writeFileSync(join(home, 'home', 'notes.txt'), 'notes\n');
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', 'home'], {}, { cwd: home });
    expect(r).toMatchObject({ code: 2, stderr: "gpuledger: --out home is not a gpuledger lake (no _gpuledger_lake.json) and holds 'notes.txt'; pick an empty or new folder\n" });
    expect(readdirSync(join(home, 'home'))).toEqual(['notes.txt']);
    expect(readFileSync(join(home, 'home', 'notes.txt'), 'utf8')).toBe('notes\n');
  });

  it('refuses `.` (and its parent) when the working folder holds the database', async () => {
    for (const out of ['.', '..']) {
      const r = await gpuledger(['--db', DB_NAME, 'export', 'lake', '--out', out], {}, { cwd: dir });
      expect({ code: r.code, stderr: r.stderr }).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(new RegExp(`^gpuledger: --out ${escape(out)} is a folder holding the database \\S+${escape(DB_NAME)}; pick another folder\\n$`)),
      });
    }
    for (const [path, hash] of bytes) expect(`${path} ${digest(path)}`).toBe(`${path} ${hash}`);
  });

  it('refuses a lake whose manifest names a file outside its own layout, deleting nothing', async () => {
    mkdirSync(join(home, 'edited'));
    const forged = { format: 'gpuledger-lake', version: 1, writtenAt: '2026-11-20T00:00:00Z', tables: {}, files: [
      { path: `../../${DB_NAME}`, table: 'cost', account: 'a', family: 'pod', month: '2026-10', rows: 1, amount: '1', fingerprint: '1', bytes: 1, mtimeMs: 1, writtenAt: '2026-11-20T00:00:00Z' },
    ] };
    writeFileSync(join(home, 'edited', '_gpuledger_lake.json'), JSON.stringify(forged));
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', 'edited'], {}, { cwd: home });
    expect(r).toMatchObject({ code: 2, stderr: expect.stringMatching(/^gpuledger: --out edited has a _gpuledger_lake\.json gpuledger cannot read \(files\.0: path must be <table>\/account=…\/family=…\/month=…\/data\.parquet for its own keys\); move the folder aside or pick another one\n$/) });
    for (const [path, hash] of bytes) expect(`${path} ${digest(path)}`).toBe(`${path} ${hash}`);
  });

  it('refuses `.` elsewhere when it holds anything, and makes a lake of an empty folder', async () => {
    const r = await gpuledger(['--db', db, 'export', 'lake', '--out', '.'], {}, { cwd: home });
    const first = readdirSync(home).sort()[0];
    expect(r).toMatchObject({ code: 2, stderr: `gpuledger: --out . is not a gpuledger lake (no _gpuledger_lake.json) and holds '${first}'; pick an empty or new folder\n` });
    mkdirSync(join(home, 'empty'));
    const ok = await gpuledger(['--db', db, 'export', 'lake', '--out', '.'], {}, { cwd: join(home, 'empty') });
    expect(ok.code).toBe(0);
    expect(readdirSync(join(home, 'empty')).sort()).toEqual(['_gpuledger_lake.json', 'cost', 'cost_daily']);
  });
});
