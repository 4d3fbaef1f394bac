// Comments in sql/ are read in editors, diffs and review tools at the code width (STYLE.md): a header that runs to
// hundreds of characters on one line is read by nobody. Wrapped lines still make one header (headerComment joins them).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SQL_DIR } from '../../src/transform/sql-files.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const MAX = 120;

// sql/schema/ is left as released: a migration is never edited after release (STYLE.md §2), its comments included
function sqlFiles(dir: string, root = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (relative(root, join(dir, e.name)) === 'schema' ? [] : sqlFiles(join(dir, e.name), root)) : e.name.endsWith('.sql') ? [join(dir, e.name)] : [],
  );
}

/** Every comment line over MAX characters, as `sql/<file>:<line> (<length> characters)`. */
function longCommentLines(sqlDir: string): string[] {
  return sqlFiles(sqlDir).flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        line.trimStart().startsWith('--') && line.length > MAX ? [`sql/${relative(sqlDir, path)}:${i + 1} (${line.length} characters)`] : [],
      ),
  );
}

describe('comments in sql/', () => {
  it(`fit in ${MAX} characters a line`, () => {
    expect(longCommentLines(SQL_DIR)).toEqual([]);
  });

  it('are named by file and line when one is too long', () => {
    const dir = tempDir('gpuledger-sql-comments-').dir;
    try {
      mkdirSync(join(dir, 'views/marts'), { recursive: true });
      const header = `-- One row per ${'long word '.repeat(12)}.`;
      const code = `select 1 as a, ${'2 as b, '.repeat(14)}3 as c -- a trailing comment belongs to a code line`;
      writeFileSync(join(dir, 'views/marts/wide.sql'), `${header}\n-- short\n${code}\n    ${header}\n`);
      expect(longCommentLines(dir)).toEqual([
        `sql/views/marts/wide.sql:1 (${header.length} characters)`,
        `sql/views/marts/wide.sql:4 (${header.length + 4} characters)`,
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
