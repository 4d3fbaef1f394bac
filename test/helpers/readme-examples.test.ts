// The README's command lines as a shell would run them: what the README test (test/integration/readme.test.ts) runs.
import { describe, expect, it } from 'vitest';
import { readmeExamples } from './readme-examples.ts';

const fence = '```';

describe('reading the commands out of a README', () => {
  it('joins continued lines, multi-line quotes and heredocs, drops comments and keeps the promised exit code', () => {
    const md = [
      '# x',
      `${fence}sh`,
      'gpuledger views                 # one line each',
      'gpuledger query --format csv \\',
      '  "select 1',
      '     as one"',
      "cat > a.csv <<'CSV'",
      'date,metric',
      'CSV',
      'npx gpuledger store check       # exit 1 when no copy is good',
      'gpuledger query "select 1 # not a comment"   # → exit 2',
      'duckdb -readonly data/x.duckdb  # not gpuledger: one of the others',
      'gpuledger query "select 2"',
      '# 2   ← what it prints',
      '#     and its second line',
      fence,
      `${fence}json`,
      '{ "gpuledger": 1 }',
      fence,
      '| a | b |',
      '| `sync` | `gpuledger sync --plan` |',
      '| `run` | `gpuledger run --no-email` (the demo: `gpuledger run --demo`) |',
      '| prose | see `gpuledger query "… <view>"` here |',
      `${fence}console`,
      '$ node bin/gpuledger.js --version',
      '0.1.0',
      fence,
    ].join('\n');
    const { commands, setup, others } = readmeExamples(md);
    expect(commands.map((c) => [c.line, c.command, c.expectCode, c.from])).toEqual([
      [3, 'gpuledger views', 0, 'code block'],
      [4, 'gpuledger query --format csv \\\n  "select 1\n     as one"', 0, 'code block'],
      [10, 'gpuledger store check', 0, 'code block'],
      [11, 'gpuledger query "select 1 # not a comment"', 2, 'code block'],
      [13, 'gpuledger query "select 2"', 0, 'code block'],
      [21, 'gpuledger sync --plan', 0, 'table'],
      [22, 'gpuledger run --no-email', 0, 'table'],
      [22, 'gpuledger run --demo', 0, 'table'],
      [25, 'gpuledger --version', 0, 'code block'],
    ]);
    expect(commands[4]!.printed).toEqual(['2   ← what it prints', 'and its second line']);
    expect(commands.filter((c) => c.printed !== undefined)).toHaveLength(1);
    expect(setup.map((s) => s.command)).toEqual(["cat > a.csv <<'CSV'\ndate,metric\nCSV"]);
    expect(others.map((o) => o.command)).toEqual(['duckdb -readonly data/x.duckdb']);
  });
});
