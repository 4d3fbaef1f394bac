// Whether the generated SQL checked in is what the cost model generates now (generated-sql.ts), said in one
// sentence that names the billing source and amount field of the first line that differs.
import type { GeneratedSqlFile } from './generated-sql-text.ts';

/**
 * What differs between a generated file as checked in and as the cost model generates it, in one sentence – naming
 * the billing source and amount field when the line that differs maps one – or undefined when they are equal.
 */
export function describeDrift(file: GeneratedSqlFile, actual: string | undefined): string | undefined {
  if (actual === undefined) return `sql/${file.path} is missing; run npm run sql:generate`;
  if (actual === file.text) return undefined;
  const have = new Set(actual.split('\n').map((l) => l.trim()));
  const lines = file.text.split('\n');
  const missing = lines.find((l) => !have.has(l.trim()));
  const origin = missing && /-- ([\w-]+)\.(\w+)(?: → (\w+)\/(\w+))?$/.exec(missing);
  if (origin) {
    const [, source, field, family, component] = origin;
    const target = family ? ` (${family}/${component})` : '';
    return `sql/${file.path} does not say what the declaration of the ${source} billing source says of ${field}${target}: expected \`${missing!.trim()}\`; run npm run sql:generate rather than editing the file`;
  }
  const at = missing ? lines.indexOf(missing) + 1 : lines.length;
  return `sql/${file.path} differs from what src/model/ generates (line ${at}${missing ? `: \`${missing.trim()}\`` : ''}); run npm run sql:generate rather than editing the file`;
}
