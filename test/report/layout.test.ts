// The shape of src/report that docs/report.md ("Layout of src/report") promises a newcomer: few files at the top,
// one folder per concern with an index.ts, folders meeting only through those, and alerts not reaching in at all.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const REPORT = join(SRC, 'report');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

function relativeImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((m) => resolve(join(file, '..'), m[1]!));
}

const folders = readdirSync(REPORT, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

describe('src/report layout', () => {
  it('keeps at most a dozen files side by side at the top', () => {
    const top = readdirSync(REPORT, { withFileTypes: true }).filter((e) => e.isFile());
    expect(top.length).toBeLessThanOrEqual(12);
  });

  it('gives every folder an index.ts as its public surface', () => {
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) expect(readdirSync(join(REPORT, folder)), folder).toContain('index.ts');
  });

  it('lets one folder use another only through its index.ts', () => {
    const reachIns: string[] = [];
    for (const file of tsFiles(REPORT)) {
      const own = relative(REPORT, file).split('/')[0];
      for (const target of relativeImports(file)) {
        const parts = relative(REPORT, target).split('/');
        if (parts.length === 2 && parts[0] !== own && folders.includes(parts[0]!) && parts[1] !== 'index.ts') {
          reachIns.push(`${relative(SRC, file)} → ${relative(SRC, target)}`);
        }
      }
    }
    expect(reachIns).toEqual([]);
  });

  it('leaves src/alert without any import from src/report (mail, money text and hasView are shared modules)', () => {
    const imports = tsFiles(join(SRC, 'alert')).flatMap((file) =>
      relativeImports(file).filter((t) => t.startsWith(REPORT)).map((t) => `${relative(SRC, file)} → ${relative(SRC, t)}`),
    );
    expect(imports).toEqual([]);
  });
});
