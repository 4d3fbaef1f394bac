// SQL lives in .sql files (STYLE.md §1); this reads them from the repository's sql/ folder.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SQL_DIR = fileURLToPath(new URL('../../sql/', import.meta.url));

export interface SqlFile {
  /** File name without .sql: the object's name (views) or NNN_name (migrations). */
  name: string;
  path: string;
  sql: string;
}

/** All .sql files directly in sql/<folder>, sorted by name; sqlDir replaces the repository's sql/ (tests). */
export function readSqlFolder(folder: string, sqlDir: string = SQL_DIR): SqlFile[] {
  const dir = join(sqlDir, folder);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => ({ name: basename(f, '.sql'), path: join(dir, f), sql: readFileSync(join(dir, f), 'utf8') }));
}

/** One named file from sql/<folder>. */
export function readSqlFile(folder: string, name: string): string {
  return readFileSync(join(SQL_DIR, folder, `${name}.sql`), 'utf8');
}

/** The header comment of a SQL file (its leading `--` lines), as one line: what a row of the view is. */
export function headerComment(sql: string): string {
  const lines: string[] = [];
  for (const line of sql.split('\n')) {
    const m = /^\s*--\s?(.*)$/.exec(line);
    if (!m) break;
    lines.push(m[1]!.trim());
  }
  return lines.join(' ').trim();
}
