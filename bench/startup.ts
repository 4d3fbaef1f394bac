// Start-up benchmark (issue 11 item 3): `gpuledger query "select 1"` on a small database against the floor – a bare
// Node script that opens the same file with @duckdb/node-api and runs the same query – and `gpuledger --version`.
// Goals: query ÷ floor ≤ 2.0, --version ≤ 0.3 s. Each is run several times, interleaved so that load on the machine
// hits all alike, and judged by its median. Writes bench/results/startup.json.
// Run: npm run bench:startup [-- --runs N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/database.ts';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(REPO, 'bin', 'gpuledger.js');
const RESULT = fileURLToPath(new URL('./results/startup.json', import.meta.url));
const RUNS = process.argv.includes('--runs') ? Number(process.argv[process.argv.indexOf('--runs') + 1]) : 9;
const QUERY_GOAL = 2.0;
const VERSION_GOAL_S = 0.3;

const FLOOR_SCRIPT = `
import { DuckDBInstance } from '@duckdb/node-api';
const instance = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY' });
const connection = await instance.connect();
const reader = await connection.runAndReadAll(process.argv[3]);
process.stdout.write(JSON.stringify(reader.getRowsJson()) + '\\n');
connection.closeSync();
instance.closeSync();
`;

function wall(args: string[]): number {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: REPO, encoding: 'utf8', env: { ...process.env, GPULEDGER_CONFIG: '' } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return seconds;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const round = (x: number) => Math.round(x * 1000) / 1000;

// the bench judges the compiled CLI, so build first: a stale dist/ would make bin/ fall back to the sources
const build = spawnSync(process.execPath, [join(REPO, 'scripts', 'build.js')], { cwd: REPO, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const dir = mkdtempSync(join(tmpdir(), 'gpuledger-bench-startup-'));
try {
  const db = join(dir, 'small.duckdb');
  // a small database: the real schema and views, no data
  const store = await openStore({ path: db, command: 'bench' });
  await store.close();
  // inside the repository so that it resolves @duckdb/node-api from node_modules, like the CLI does
  const floorScript = join(REPO, 'bench', `.startup-floor-${process.pid}.mjs`);
  writeFileSync(floorScript, FLOOR_SCRIPT);
  const sql = 'select 1';
  const samples = { floor: [] as number[], query: [] as number[], version: [] as number[], bareNode: [] as number[] };
  try {
    wall([floorScript, db, sql]); // warm the file cache once for everyone
    for (let i = 0; i < RUNS; i++) {
      samples.floor.push(wall([floorScript, db, sql]));
      samples.query.push(wall([BIN, '--db', db, 'query', sql, '--format', 'csv']));
      samples.version.push(wall([BIN, '--version']));
      samples.bareNode.push(wall(['-e', '0']));
    }
  } finally {
    rmSync(floorScript, { force: true });
  }
  const floor = median(samples.floor);
  const query = median(samples.query);
  const version = median(samples.version);
  const ratio = query / floor;
  const result = {
    command: `npm run bench:startup -- --runs ${RUNS}`,
    measuredAt: new Date().toISOString(),
    node: process.version,
    runs: RUNS,
    query: {
      what: `gpuledger --db <small.duckdb> query "${sql}" ÷ bare @duckdb/node-api script (open READ_ONLY + same query)`,
      gpuledgerSeconds: round(query),
      floorSeconds: round(floor),
      ratio: Math.round(ratio * 100) / 100,
      goal: `≤ ${QUERY_GOAL}`,
      met: ratio <= QUERY_GOAL,
    },
    version: {
      what: 'gpuledger --version wall time',
      seconds: round(version),
      goal: `≤ ${VERSION_GOAL_S} s`,
      met: version <= VERSION_GOAL_S,
      // context, not judged: what starting Node itself costs on this machine in the same run
      bareNodeSeconds: round(median(samples.bareNode)),
    },
    samples: Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, v.map(round)])),
  };
  writeFileSync(RESULT, JSON.stringify(result, null, 2) + '\n');
  console.log(
    `query "${sql}": gpuledger ${result.query.gpuledgerSeconds} s, bare node-api ${result.query.floorSeconds} s, ` +
      `ratio ${result.query.ratio} (goal ${result.query.goal}: ${result.query.met ? 'met' : 'MISSED'})`,
  );
  console.log(
    `--version: ${result.version.seconds} s (goal ${result.version.goal}: ${result.version.met ? 'met' : 'MISSED'}; ` +
      `\`node -e 0\` alone ${result.version.bareNodeSeconds} s)`,
  );
  console.log(`wrote ${RESULT}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
