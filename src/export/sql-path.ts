// A path as a SQL string literal: COPY … TO takes no parameters for its target.
export function sqlPath(path: string): string {
  return `'${path.replace(/'/g, "''")}'`;
}
