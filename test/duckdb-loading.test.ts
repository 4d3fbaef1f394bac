// DuckDB's client is loaded in one place (src/util/duckdb-api.ts, with require()): a value imported from
// '@duckdb/node-api' anywhere else in src/ would bring back the ~85 ms per CLI start that Node's CommonJS export
// lexer costs when ESM imports the package. Read with TypeScript's parser, so every way of writing an import counts.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { tsFiles } from './helpers/import-graph.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const PACKAGE = '@duckdb/node-api';
const LOADER = 'util/duckdb-api.ts';

/** Each place in `text` that loads the package's values (not only its types), as "line: code". */
export function valueLoads(text: string, fileName = 'file.ts'): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2023, true);
  const found: string[] = [];
  const names = (node: ts.Node) => `${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().split('\n')[0]}`;
  const isPackage = (node: ts.Node | undefined) => node !== undefined && ts.isStringLiteralLike(node) && node.text === PACKAGE;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && isPackage(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly = clause !== undefined && (clause.isTypeOnly || (clause.name === undefined && clause.namedBindings !== undefined
        && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      if (!typeOnly) found.push(names(node));
    } else if (ts.isExportDeclaration(node) && isPackage(node.moduleSpecifier)) {
      const typeOnly = node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause)
        && node.exportClause.elements.every((e) => e.isTypeOnly));
      if (!typeOnly) found.push(names(node));
    } else if (ts.isCallExpression(node) && isPackage(node.arguments[0])
      && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      found.push(names(node));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("DuckDB's client, loaded once", () => {
  it(`takes DuckDB's values in src/ only from ${LOADER}`, () => {
    const elsewhere = tsFiles(SRC)
      .map((file) => ({ file: relative(SRC, file), loads: valueLoads(readFileSync(file, 'utf8'), file) }))
      .filter(({ file, loads }) => file !== LOADER && loads.length > 0)
      .map(({ file, loads }) => `${file}:${loads.join(', ')}`);
    expect(elsewhere).toEqual([]);
  });

  it('sees a value import however it is written, and lets type imports pass', () => {
    const text = [
      "import type { DuckDBValue } from '@duckdb/node-api';",
      'import { type DuckDBType } from "@duckdb/node-api";',
      "export type { DuckDBResult } from '@duckdb/node-api';",
      'import { DuckDBInstance } from "@duckdb/node-api";',
      "import * as duckdb from '@duckdb/node-api';",
      "export { quotedString } from '@duckdb/node-api';",
      "const later = () => import('@duckdb/node-api');",
      "const now = require('@duckdb/node-api');",
    ].join('\n');
    expect(valueLoads(text).map((l) => Number(l.split(':')[0]))).toEqual([4, 5, 6, 7, 8]);
  });
});
