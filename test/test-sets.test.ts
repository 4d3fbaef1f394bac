// `npm run test:quick` is the edit–test loop: it must not start the real outside parts that make the suite slow.
// The sets are chosen by path (test/test-sets.ts); this holds every "quick" file to that, naming the file and what it
// starts, so a test that needs them is moved under a slow folder or named *.slow.test.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SLOW_TESTS } from './test-sets.ts';

const REPO = fileURLToPath(new URL('../', import.meta.url));

// the globs use only `**/`, `*` and literal text
function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(/(\*\*\/|\*)/)
    .map((part) => (part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${body}$`);
}

const SLOW = SLOW_TESTS.map(globToRegExp);
const isSlow = (file: string): boolean => SLOW.some((re) => re.test(file));

const STARTS: Array<[string, RegExp]> = [
  ['Chromium (test/helpers/browser.ts)', /from '[^']*helpers\/browser\.ts'/],
  ['PostgreSQL (test/helpers/postgres.ts)', /from '[^']*helpers\/postgres\.ts'/],
  ['the CLI (test/helpers/cli.ts)', /from '[^']*helpers\/cli\.ts'/],
  ['the CLI (bin/gpuledger.js)', /bin\/gpuledger\.js', import\.meta\.url/],
  ['a TypeScript script (--import tsx)', /'--import', 'tsx'/],
  ['LibreOffice (soffice)', /'soffice'/],
];

const SELF = 'test/test-sets.test.ts'; // its markers are written out below
const testFiles = readdirSync(`${REPO}test`, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => `test/${f}`)
  .filter((f) => f !== SELF)
  .sort();

describe('test sets', () => {
  it('tells slow files by folder and name', () => {
    expect(isSlow('test/browser/serve.test.ts')).toBe(true);
    expect(isSlow('test/integration/sync.test.ts')).toBe(true);
    expect(isSlow('test/export/postgres-export.test.ts')).toBe(true);
    expect(isSlow('test/report/office.slow.test.ts')).toBe(true);
    expect(isSlow('test/export/lake-links.test.ts')).toBe(false);
    expect(isSlow('test/layout.test.ts')).toBe(false);
  });

  it('starts no browser, PostgreSQL, LibreOffice, CLI or script in a quick test file', () => {
    const quick = testFiles.filter((f) => !isSlow(f));
    expect(quick.length).toBeGreaterThan(0);
    const offenders = quick.flatMap((file) => {
      const text = readFileSync(`${REPO}${file}`, 'utf8');
      return STARTS.filter(([, re]) => re.test(text)).map(([what]) => `${file} starts ${what}`);
    });
    expect(offenders).toEqual([]);
  });

  it('finds each slow marker in at least one slow file (a marker that matches nothing guards nothing)', () => {
    const slowText = testFiles.filter(isSlow).map((f) => readFileSync(`${REPO}${f}`, 'utf8')).join('\n');
    for (const [what, re] of STARTS) expect(re.test(slowText), what).toBe(true);
  });
});
