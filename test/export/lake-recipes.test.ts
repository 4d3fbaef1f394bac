// README.md's Ray Data and polars recipes are the lines test/export/lake-engines.slow.test.ts runs: each engine
// script marks its recipe (`# README: <engine>` … `# end README`), and README's python block must hold it verbatim,
// so the README cannot drift from what was proven against a real lake.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const pythonBlocks = [...README.matchAll(/^```python\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);

describe("the README's lake recipes", () => {
  for (const script of ['read_lake_ray.py', 'read_lake_polars.py']) {
    it(`holds ${script}'s recipe verbatim in one python block`, () => {
      const text = readFileSync(new URL(`../engines/${script}`, import.meta.url), 'utf8');
      const recipe = /^# README: [^\n]+\n([\s\S]*?)^# end README$/m.exec(text)?.[1];
      expect(recipe, `${script} marks its recipe with # README: … and # end README`).toBeDefined();
      expect(pythonBlocks.filter((b) => b.includes(recipe!))).toHaveLength(1);
    });
  }
});
