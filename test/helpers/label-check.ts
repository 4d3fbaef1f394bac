// The semantic layer's headings written anywhere but src/model/semantic.ts, as TypeScript's parser reads the code
// (issue 41 point 1): a dimension's or a measure's label ("GPU type", "Share") written as a string of its own, or as
// a heading's text in a template (`<th …>Share</th>`), is a second declaration – the next rename misses it. What
// this finds, with the file and the line:
//   literal   a string literal or a template without substitutions that is exactly a label
//   heading   a template's text holding a label alone between two tags (`>Share<`)
// Labels inside longer text ("Cost by family", "No GPU-hours in this range") are words of a sentence, not headings.
import ts from 'typescript';

export interface LabelViolation {
  file: string;
  line: number;
  kind: 'literal' | 'heading';
  label: string;
}

export function labelViolations(file: string, text: string, labels: readonly string[]): LabelViolation[] {
  const wanted = new Set(labels);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: LabelViolation[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && wanted.has(node.text)) {
      // a module's path or a property's name is no heading; a property's value is
      const isName = (ts.isPropertyAssignment(node.parent) && node.parent.name === node) || ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent);
      if (!isName) found.push({ file, line: at(node), kind: 'literal', label: node.text });
    }
    const pieces = ts.isNoSubstitutionTemplateLiteral(node) ? [node.text] : ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((s) => s.literal.text)] : [];
    for (const piece of pieces) {
      for (const m of piece.matchAll(/>\s*([^<>]+?)\s*</g)) if (wanted.has(m[1]!)) found.push({ file, line: at(node), kind: 'heading', label: m[1]! });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}
