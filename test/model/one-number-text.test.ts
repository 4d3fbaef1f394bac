// One way to turn a number into text (issue 41 §3, STYLE.md §19): src/model/unit-text.ts writes every figure from
// its declared unit. This test reads src/ with TypeScript's parser (as test/layout.test.ts reads imports) and fails
// on a formatter written anywhere else – toLocaleString, Intl.NumberFormat, toFixed to two or more places (money's),
// or a hand-made thousands separator – naming the file and the function. What remains outside src/model/ is listed
// below with the reason it is not a unit's text; an entry nothing matches any more fails too, so the list shrinks.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from '../helpers/import-graph.ts';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const OWNER = 'model/'; // the one folder that may write numbers as text

/** Formatters left outside src/model/ on purpose: file → the functions (or consts) that hold one, and why. */
const ALLOWED: Record<string, Record<string, string>> = {
  'config/alerts.ts': { money: 'a config number becomes the DECIMAL string the SQL compares, not text for people' },
  'config/guardrails.ts': { money: 'a config number becomes the DECIMAL string the SQL compares, not text for people' },
  'allocation/load-rules.ts': { ruleRows: "a split's share as a DECIMAL parameter of the rules table" },
  'alert/rules/unit-cost.ts': { evaluateUnitCost: "the rule's ratio as a DECIMAL parameter of the alert SQL" },
  'guardrail/triggers.ts': { budgetFirings: "the threshold as the decimal(9,3) parameter of the trigger's SQL" },
  'simulator/scenarios/truth.ts': { usd: "the simulator's own idea of the contract shares nothing with src/model/" },
  'report/html/render-html.ts': { writeHtmlReport: "a file's size in megabytes in a log line: no column has the unit" },
  // the charts' axis ticks ("$1.2k", "$0.05"): short forms no column reads in; they move with issue 41 §2's svg work
  'report/charts/axes.ts': { usdShort: 'axis ticks in short form', usdFine: 'axis ticks of figures below a dollar' },
  // runs in the browser: the totals of the rows a reader filtered, recomputed on the page (the server's cells are
  // unitText's); the bundle could take unit-text.ts at build time – its own work
  'present/browser/page-script.ts': { totals: 'filtered totals in the browser', '(module)': 'the browser\'s thousands separator' },
};

export interface Formatter {
  file: string;
  where: string;
  what: string;
}

/** The nearest enclosing named function, else the module-level const, else '(module)': what ALLOWED is keyed by. */
function enclosingName(node: ts.Node): string {
  for (let n: ts.Node | undefined = node.parent; n; n = n.parent) {
    const name = ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) ? n.name : undefined;
    if (name && ts.isIdentifier(name)) return name.text;
    // a const inside a function is a part of that function; a module-level const is a name of its own
    const atTop = ts.isVariableDeclaration(n) && ts.isSourceFile(n.parent.parent.parent) ? n.name : undefined;
    if (atTop && ts.isIdentifier(atTop)) return atTop.text;
  }
  return '(module)';
}

/** x.name(…) and x['name'](…) alike. */
function calledName(e: ts.Expression): string | undefined {
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  if (ts.isElementAccessExpression(e) && ts.isStringLiteralLike(e.argumentExpression)) return e.argumentExpression.text;
  return undefined;
}

/** Every number-to-text formatter in one file's text, as TypeScript parses it. */
export function formattersIn(file: string, text: string): Formatter[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: Formatter[] = [];
  const add = (node: ts.Node, what: string) => found.push({ file, where: enclosingName(node), what });
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calledName(node.expression);
      if (name === 'toLocaleString') add(node, 'toLocaleString');
      if (name === 'toFixed') {
        const places = node.arguments[0];
        // one place is a coordinate in an SVG or a rough figure; two or more is money (or finer)
        const fine = !places || !ts.isNumericLiteral(places) || Number(places.text) >= 2;
        if (fine) add(node, `toFixed(${places?.getText(source) ?? ''})`);
      }
    }
    const access = ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression);
    if (access && node.expression.text === 'Intl' && node.name.text === 'NumberFormat') add(node, 'Intl.NumberFormat');
    // the thousands separator by hand: /\B(?=(\d{3})+(?!\d))/
    const regex = node.kind === ts.SyntaxKind.RegularExpressionLiteral;
    if (regex && node.getText(source).includes('\\d{3})+')) add(node, 'a thousands separator');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Formatters outside src/model/ that ALLOWED does not name, as "file: where (what)". */
export function strayFormatters(found: readonly Formatter[]): string[] {
  return found
    .filter((f) => !f.file.startsWith(OWNER) && ALLOWED[f.file]?.[f.where] === undefined)
    .map((f) => `${f.file}: ${f.where} (${f.what})`);
}

const formatters = tsFiles(SRC).flatMap((file) => formattersIn(relative(SRC, file), readFileSync(file, 'utf8')));

describe('one way to turn a number into text', () => {
  it('finds no number-to-text formatter outside src/model/ but the ones listed with a reason', () => {
    expect(strayFormatters(formatters)).toEqual([]);
  });

  it('lists nothing that is no longer there', () => {
    const stale = Object.entries(ALLOWED).flatMap(([file, places]) =>
      Object.keys(places)
        .filter((where) => !formatters.some((f) => f.file === file && f.where === where))
        .map((where) => `${file}: ${where}`),
    );
    expect(stale).toEqual([]);
  });

  it('sees the formatters src/model/unit-text.ts holds (the check reads what it should)', () => {
    const own = formatters.filter((f) => f.file === 'model/unit-text.ts').map((f) => f.what);
    expect(own).toContain('a thousands separator');
  });

  it('fails on a formatter put into a real page, however it is written, naming the file and the function', () => {
    const file = 'serve/alerts-page.ts';
    const text = readFileSync(join(SRC, file), 'utf8');
    expect(strayFormatters(formattersIn(file, text))).toEqual([]);
    const injected = [
      'export function totalText(total: number): string {',
      "  return total.toLocaleString('en-US', { style: 'currency', currency: 'USD' });",
      '}',
      "export const shareText = (x: number) => `${x['toFixed'](2)} %`;",
      "const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });",
      'export function usdAgain(cents: bigint): string {',
      "  return '$' + String(cents / 100n).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',') + '.' + usd.format(0);",
      '}',
      'export const roughly = (x: number, n: number) => x.toFixed(n);',
      'export const coordinate = (x: number) => x.toFixed(1);', // one place: an SVG coordinate, not caught
    ].join('\n');
    expect(strayFormatters(formattersIn(file, `${text}\n${injected}\n`))).toEqual([
      'serve/alerts-page.ts: totalText (toLocaleString)',
      'serve/alerts-page.ts: shareText (toFixed(2))',
      'serve/alerts-page.ts: usd (Intl.NumberFormat)',
      'serve/alerts-page.ts: usdAgain (a thousands separator)',
      'serve/alerts-page.ts: roughly (toFixed(n))',
    ]);
  });

  it('lets src/model/ write numbers as text', () => {
    const text = 'export const t = (x: number) => x.toFixed(2);';
    expect(strayFormatters(formattersIn('model/unit-text.ts', text))).toEqual([]);
    expect(strayFormatters(formattersIn('serve/pages.ts', text))).toEqual(['serve/pages.ts: t (toFixed(2))']);
  });
});
