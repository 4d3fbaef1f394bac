// The SQL that TypeScript hands to the database, as the compiler reads it: every call of run/one/all/query/stream (a
// store's, a connection's: runAndReadAll, streamAndReadAll, …) whose first argument is a string or template literal,
// or a const initialised with one in the same file, and every other literal that starts as a query does (SELECT or
// WITH … AS: SQL handed through a helper such as queryAll). A template's ${…} become a placeholder name, so a
// statement built around a table name still parses; what then does not parse is reported as unchecked, never dropped.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const METHODS = new Set(['run', 'one', 'all', 'query', 'stream', 'runAndReadAll', 'runAndRead', 'streamAndReadAll', 'streamAndRead', 'prepare']);

/** A placeholder for a template's ${…}: a name of no layer, so the rule passes it. */
export const PLACEHOLDER = 'ts_expression';

export interface TsSql {
  file: string;
  line: number;
  sql: string;
}

function literalText(node: ts.Node, consts: Map<string, ts.Expression>, depth = 0): string | undefined {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) return node.head.text + node.templateSpans.map((s) => PLACEHOLDER + s.literal.text).join('');
  if (ts.isIdentifier(node) && depth < 2) {
    const init = consts.get(node.text);
    if (init) return literalText(init, consts, depth + 1);
  }
  if (ts.isParenthesizedExpression(node)) return literalText(node.expression, consts, depth);
  return undefined;
}

/** The statements a file passes to the database: DML and queries alike (a caller filters what it checks). */
export function sqlInFile(file: string): TsSql[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const consts = new Map<string, ts.Expression>();
  const calls: ts.CallExpression[] = [];
  const queries: ts.Node[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const text = ts.isTemplateExpression(node) ? node.head.text : node.text;
      if (/^\s*(select\s[\s\S]*\sfrom\s|with\s+\w+\s+as\s*\()/i.test(text)) queries.push(node);
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) consts.set(node.name.text, node.initializer);
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && METHODS.has(node.expression.name.text)) calls.push(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out: TsSql[] = [];
  const seen = new Set<ts.Node>();
  for (const call of calls) {
    const first = call.arguments[0];
    if (!first) continue;
    seen.add(first);
    if (ts.isIdentifier(first) && consts.has(first.text)) seen.add(consts.get(first.text)!);
    const sql = literalText(first, consts);
    if (sql === undefined || !/\b(select|from|insert|update|delete|create|with|copy|attach|set|pragma)\b/i.test(sql)) continue;
    out.push({ file, line: source.getLineAndCharacterOfPosition(call.getStart()).line + 1, sql });
  }
  for (const node of queries) {
    if (seen.has(node)) continue;
    out.push({ file, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, sql: literalText(node, consts)! });
  }
  return out;
}
