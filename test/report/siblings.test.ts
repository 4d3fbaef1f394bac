// The HTML report and the workbook are siblings over the report core (definition, period, session, queries,
// headings, file names): neither reaches the other, directly or through another module – so a change to how a sheet
// is written cannot change the page, and the page can move without the workbook (issue 27 §1).
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../helpers/import-graph.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const { edges } = importGraph(SRC);

/** Every path from a file under `from` that reaches a file under `to`, as "a → b → c". */
function reaching(from: string, to: string): string[] {
  const inside = (file: string, dir: string) => file.startsWith(join(SRC, dir) + '/');
  const found: string[] = [];
  for (const start of [...edges.keys()].filter((f) => inside(f, from))) {
    const seen = new Set<string>([start]);
    const queue: string[][] = [[start]];
    while (queue.length) {
      const path = queue.shift()!;
      for (const next of edges.get(path.at(-1)!) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        if (inside(next, to)) found.push([...path, next].map((f) => relative(SRC, f)).join(' → '));
        else queue.push([...path, next]);
      }
    }
  }
  return found;
}

describe('the HTML report and the workbook', () => {
  it('the page reaches no module of the workbook, directly or through another', () => {
    expect(reaching('report/html', 'report/workbook')).toEqual([]);
  });

  it('the workbook reaches no module of the page', () => {
    expect(reaching('report/workbook', 'report/html')).toEqual([]);
  });

  it('sees a path through a third module (the check can fail)', () => {
    // serve imports the report's index, which reaches the workbook through render.ts: a path of several steps
    expect(reaching('serve', 'report/workbook').some((path) => path.split(' → ').length > 2)).toBe(true);
  });
});
