// Every dimension and measure has one declaration (issue 41 point 1): its heading is written in
// src/model/semantic.ts and read from there everywhere else. The checker (test/helpers/label-check.ts) reads src/ with
// TypeScript's parser; it is shown to fail on a label put into copies of real files, naming the file and the line.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DIMENSIONS, MEASURES } from '../../src/model/semantic.ts';
import { tsFiles } from '../helpers/import-graph.ts';
import { labelViolations } from '../helpers/label-check.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DECLARED_IN = 'src/model/semantic.ts';

/** Every heading the semantic layer declares. */
const LABELS = [...Object.values(DIMENSIONS).map((d) => d.label), ...Object.values(MEASURES).map((m) => m.label)];

const SOURCES = tsFiles(join(ROOT, 'src'))
  .map((f) => relative(ROOT, f))
  .filter((f) => f !== DECLARED_IN);

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

function injected(file: string, anchor: string, replacement: string) {
  const original = read(file);
  if (!original.includes(anchor)) throw new Error(`${file} no longer holds ${JSON.stringify(anchor)}: move it`);
  const text = original.replace(anchor, replacement);
  return { violations: labelViolations(file, text, LABELS), line: (code: string) => text.slice(0, text.indexOf(code)).split('\n').length };
}

describe('the semantic layer', () => {
  it('declares each dimension and measure heading once: no label is written as a literal elsewhere in src/', () => {
    expect(LABELS).toContain('GPU type');
    expect(LABELS).toContain('Share');
    expect(new Set(LABELS).size).toBe(LABELS.length);
    const found = SOURCES.flatMap((f) => labelViolations(f, read(f), LABELS)).map((v) => `${v.file}:${v.line} ${v.kind} '${v.label}'`);
    expect(found).toEqual([]);
  });

  it('fails on a dimension label written as a literal in a real file, naming the file and the line', () => {
    const code = "const heading = 'GPU type';";
    const r = injected('src/alert/rules/anomaly-incident.ts', '// the narrowest series says best', `${code}\n// the narrowest series says best`);
    expect(r.violations).toEqual([{ file: 'src/alert/rules/anomaly-incident.ts', line: r.line(code), kind: 'literal', label: 'GPU type' }]);
  });

  it("fails on a measure's heading typed into a page's markup", () => {
    const r = injected('src/report/view/view-page.ts', '${MEASURES.share.label}</th>', 'Share</th>');
    expect(r.violations.map((v) => [v.kind, v.label])).toEqual([['heading', 'Share']]);
  });

  it('lets a label stand inside a sentence: words, not headings', () => {
    expect(labelViolations('x.ts', "const t = `Daily cost by GPU type`; const n = html`<p>No GPU-hours in this range</p>`;", LABELS)).toEqual([]);
  });
});
