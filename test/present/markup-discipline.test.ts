// One way to write markup (STYLE.md §20, issue 41 point 2), held: outside src/present/ HTML and SVG are written only
// in present's `html` and `svg` templates – no trustedMarkup, no markup built by concatenation or in an untagged
// template, no tag joined or rewritten as text. The checker (test/helpers/markup-check.ts) reads the code with
// TypeScript's parser; it is shown to fail on markup put into copies of real files, naming the file and the line.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markupViolations, type MarkupViolation } from '../helpers/markup-check.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Files that may hold markup as text, each with the reason. */
const EXEMPT: Record<string, string> = {
  'src/simulator/account/hostile-names.ts':
    'the simulator names resources with markup on purpose – data every page must escape; the simulator is a leaf ' +
    'that imports util only, and nothing it writes is drawn as markup',
};

const tsFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** Every file of src/ but present's own, by its path from the repository's root. */
const SOURCES = tsFiles(join(ROOT, 'src'))
  .map((f) => relative(ROOT, f))
  .filter((f) => !f.startsWith('src/present/'));

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** A real file with code put in at `anchor` (which must be there: a moved anchor fails, never passes unseen). */
function injected(file: string, anchor: string, replacement: string): { text: string; line: (code: string) => number } {
  const original = read(file);
  if (!original.includes(anchor)) throw new Error(`${file} no longer holds ${JSON.stringify(anchor)}: move the injection`);
  const text = original.replace(anchor, replacement);
  return { text, line: (code) => text.slice(0, text.indexOf(code)).split('\n').length };
}

const where = (vs: MarkupViolation[]) => vs.map((v) => `${v.file}:${v.line} ${v.rule}`);

describe('markup outside src/present/', () => {
  it('is written only in present\'s html and svg templates, in every file of src/ (exemptions named with a reason)', () => {
    const found = SOURCES.filter((f) => !(f in EXEMPT)).flatMap((f) => markupViolations(f, read(f)));
    expect(found.map((v) => `${v.file}:${v.line} ${v.rule}: ${v.code}`)).toEqual([]);
  });

  it('has no stale exemption: each exempt file still holds the markup it is exempt for', () => {
    for (const file of Object.keys(EXEMPT)) expect(markupViolations(file, read(file)), file).not.toEqual([]);
  });

  it('fails on trustedMarkup(\'<ul>\' + names + \'</ul>\') put into the alerts page, naming the file and the line', () => {
    const file = 'src/serve/alerts-page.ts';
    const copy = injected(file, '  // two short parts of one page, not regions of their own\n  return section({ id: \'s-muted\', title: \'Muted\', body: [how, table]',
      '  const names = result.rows.map((r) => String(r[0])).join(\', \');\n' +
      '  const list = trustedMarkup(\'<ul>\' + names + \'</ul>\');\n' +
      '  return section({ id: \'s-muted\', title: \'Muted\', body: [how, table, list]');
    const at = copy.line('const list = trustedMarkup(');
    expect(where(markupViolations(file, copy.text))).toEqual([`${file}:${at} concatenation`, `${file}:${at} trustedMarkup`]);
  });

  it('fails on a chart legend that draws its label unescaped, either way it can be written', () => {
    const file = 'src/report/charts/axes.ts';
    const label = 'font-family="${font}">${it.label}</text>`;';
    // vouched for inside the svg template
    const vouched = injected(file, label, 'font-family="${font}">${trustedMarkup(it.label)}</text>`;');
    expect(where(markupViolations(file, vouched.text))).toEqual([`${file}:${vouched.line('trustedMarkup(it.label)')} trustedMarkup`]);
    // or the legend's text written as a string again, as the charts were before the svg template
    const asString = injected(file, 'const text = svg`<text x=', 'const text = `<text x=');
    expect(where(markupViolations(file, asString.text))).toEqual([`${file}:${asString.line('const text = `<text x=')} template`]);
    // or built by concatenation
    const concatenated = injected(file, 'return svg`${mark}${text}`;', 'return mark.text + \'<text>\' + it.label + \'</text>\';');
    expect(where(markupViolations(file, concatenated.text))).toEqual([`${file}:${concatenated.line("mark.text + '<text>'")} concatenation`]);
  });

  it('fails on the other ways round the templates: an alias, another tag, an html not present\'s, a tag joined as text', () => {
    const file = 'src/serve/injected.ts';
    const lines = [
      "import { trustedMarkup as vouch } from '../present/index.ts';",
      "import { html } from '../util/my-html.ts';",
      'export const a = (x: string) => raw`<b>${x}</b>`;',
      'export const b = (x: string) => html`<p>${x}</p>`;',
      "export const c = (xs: string[]) => xs.join('<br>');",
      "export const d = (page: string) => page.replace('</body>', '<script>x()</script></body>');",
      "export const e = (x: string) => { let s = '<table>'; s += `<tr><td>${x}</td></tr>`; return s; };",
    ];
    expect(where(markupViolations(file, lines.join('\n')))).toEqual([
      `${file}:1 trustedMarkup`,
      `${file}:3 template`,
      `${file}:4 template`,
      `${file}:5 as text`,
      `${file}:6 as text`,
      `${file}:7 concatenation`,
      `${file}:7 template`,
    ]);
  });

  it('passes markup in present\'s templates and text that only looks like a tag', () => {
    const lines = [
      "import { html, svg as draw } from '../present/index.ts';",
      "import * as present from '../present/index.ts';",
      'export const a = (x: string) => html`<p class="${x}">${x}</p>${draw`<rect/>`}${present.svg`<line/>`}`;',
      "program.option('--out <path>', 'where the file goes');",
      "export const b = (f: string) => `filter '${f}' must be <dimension>:<value>, or category:<name>`;",
      "export const c = (to: string) => `<${to}>` + ' <account>';",
    ];
    expect(markupViolations('src/serve/fine.ts', lines.join('\n'))).toEqual([]);
  });
});
