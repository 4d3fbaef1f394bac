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
function injected(file: string, anchor: string, replacement: string) {
  const original = read(file);
  if (!original.includes(anchor)) throw new Error(`${file} no longer holds ${JSON.stringify(anchor)}: move it`);
  const text = original.replace(anchor, replacement);
  /** The line the injected `code` is on. */
  const line = (code: string) => text.slice(0, text.indexOf(code)).split('\n').length;
  return { text, line, found: () => where(markupViolations(file, text)) };
}

const where = (vs: MarkupViolation[]) => vs.map((v) => `${v.file}:${v.line} ${v.rule}`);

describe('markup outside src/present/', () => {
  it('is written only in present\'s html and svg templates in every file of src/ (exemptions have a reason)', () => {
    const found = SOURCES.filter((f) => !(f in EXEMPT)).flatMap((f) => markupViolations(f, read(f)));
    expect(found.map((v) => `${v.file}:${v.line} ${v.rule}: ${v.code}`)).toEqual([]);
  });

  it('has no stale exemption: each exempt file still holds the markup it is exempt for', () => {
    for (const file of Object.keys(EXEMPT)) expect(markupViolations(file, read(file)), file).not.toEqual([]);
  });

  it('fails on trustedMarkup(\'<ul>\' + names + \'</ul>\') in the alerts page, naming the file and the line', () => {
    const file = 'src/serve/alerts-page.ts';
    const anchor = "  return section({ id: 's-muted', title: 'Muted', body: [how, table]";
    const copy = injected(file, anchor, [
      "  const names = result.rows.map((r) => String(r[0])).join(', ');",
      "  const list = trustedMarkup('<ul>' + names + '</ul>');",
      "  return section({ id: 's-muted', title: 'Muted', body: [how, table, list]",
    ].join('\n'));
    const at = copy.line('const list = trustedMarkup(');
    expect(copy.found()).toEqual([`${file}:${at} concatenation`, `${file}:${at} trustedMarkup`]);
  });

  it('fails on a chart legend that draws its label unescaped, each way it can be written', () => {
    const file = 'src/report/charts/axes.ts';
    const label = "const text = chartText({ x: x + 19, y, fill: INK, className: 'c-ink', font }, it.label);";
    // the label vouched for
    const vouched = injected(file, label, label.replace('it.label)', 'trustedMarkup(it.label))'));
    expect(vouched.found()).toEqual([`${file}:${vouched.line('trustedMarkup(it.label)')} trustedMarkup`]);
    // the legend's text written as a string again, as the charts were before the svg template
    const asString = injected(file, label, 'const text = `<text x="${x + 19}" y="${y}">${it.label}</text>`;');
    expect(asString.found()).toEqual([`${file}:${asString.line('const text = `<text')} template`]);
    // or built by concatenation
    const mark = injected(file, 'return svg`${mark}${text}`;', "return mark.text + '<text>' + it.label + '</text>';");
    expect(mark.found()).toEqual([`${file}:${mark.line("mark.text + '<text>'")} concatenation`]);
  });

  it('fails on the ways round the templates: an alias, a tag, an html not present\'s, a tag joined as text', () => {
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
