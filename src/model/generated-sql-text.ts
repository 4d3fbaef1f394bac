// How a generated SQL file is written (generated-sql.ts and generated-report-sql.ts): the file's place and text, the
// line that says it is generated, header comments wrapped at the code width, string literals.

export interface GeneratedSqlFile {
  /** Relative to sql/. */
  path: string;
  text: string;
}

export const MARK = '-- Generated from src/model/ by `npm run sql:generate`: change the declaration there, not this file.';

/**
 * Header comment lines wrapped at word boundaries to the code width, one `-- ` line per piece; a line never starts
 * with '–', '%' or '=' (they stay with the word before them).
 */
export function commentLines(text: string, width = 116): string {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '--';
    const words = paragraph.split(' ').reduce<string[]>((glued, word) => {
      if (['–', '%', '='].includes(word) && glued.length > 0) glued[glued.length - 1] += ` ${word}`;
      else glued.push(word);
      return glued;
    }, []);
    for (const word of words) {
      if (line !== '--' && line.length + 1 + word.length > width) {
        lines.push(line);
        line = '--';
      }
      line += ` ${word}`;
    }
    lines.push(line);
  }
  return lines.join('\n');
}

/** A string literal in SQL. */
export { quotedString as quote } from '../util/duckdb-api.ts';
