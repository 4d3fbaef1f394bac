// Markup outside src/present/, as TypeScript's parser reads it (STYLE.md §20, §21): HTML and SVG are written only in
// present's `html` and `svg` templates, which escape every interpolation, so a name from the store, the config or a
// URL cannot become markup on the way. What this finds, with the file and the line:
//   trustedMarkup   any mention of trustedMarkup (a call, an import, `p.trustedMarkup`, an alias's source)
//   concatenation   `+` / `+=` with a string or template holding a tag: markup built as text
//   template        an untagged template literal holding a tag, or one whose tag is not present's html/svg
//   as text         a tag handed to join/replace/replaceAll/concat: markup joined or rewritten as text
// A tag is an HTML or SVG element's name after `<` (`<ul>`, `</text`, `<rect `): a placeholder in a message
// (`<name>`, `<account>`) is no element, and a plain string literal alone (commander's '--out <path>') is not
// checked – it becomes markup only through one of the ways above.
import ts from 'typescript';

export type MarkupRule = 'trustedMarkup' | 'concatenation' | 'template' | 'as text';

export interface MarkupViolation {
  file: string;
  line: number;
  rule: MarkupRule;
  /** The code, cut to a line's worth. */
  code: string;
}

const ELEMENTS = [
  // HTML
  'a abbr address area article aside audio b base bdi bdo blockquote body br button canvas caption cite code col',
  'colgroup data datalist dd del details dfn dialog div dl dt em embed fieldset figcaption figure footer form h1 h2',
  'h3 h4 h5 h6 head header hgroup hr html i iframe img input ins kbd label legend li link main map mark menu meta',
  'meter nav noscript object ol optgroup option output p picture pre progress q rp rt ruby s samp script search',
  'section select slot small source span strong style sub summary sup table tbody td template textarea tfoot th',
  'thead time title tr track u ul var video wbr',
  // SVG
  'svg g defs symbol use rect circle ellipse line polyline polygon path text tspan textPath image pattern',
  'linearGradient radialGradient stop clipPath mask filter marker foreignObject desc metadata switch view',
].join(' ').split(' ');
const TAG = new RegExp(`<\\/?(?:${ELEMENTS.join('|')})(?=[\\s/>]|$)`, 'i');
const AS_TEXT = new Set(['join', 'replace', 'replaceAll', 'concat']);
const TAG_NAMES = ['html', 'svg'];
const PLUS = [ts.SyntaxKind.PlusToken, ts.SyntaxKind.PlusEqualsToken];

/** Whether a piece of text holds an HTML or SVG tag. */
export const holdsTag = (text: string): boolean => TAG.test(text);

/** A string or template literal's text (a template's ${…} as a space), or undefined for any other expression. */
function literalText(node: ts.Node): string | undefined {
  while (ts.isParenthesizedExpression(node)) node = node.expression;
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isTemplateExpression(node)) {
    return node.head.text + node.templateSpans.map((s) => ` ${s.literal.text}`).join('');
  }
  return undefined;
}

const isPresentModule = (specifier: string) => /(^|\/)present\/(index|html|svg)\.ts$/.test(specifier);

/** The names this file may tag markup with: html and svg imported from src/present/ (under any local name). */
function presentTags(source: ts.SourceFile): { tags: Set<string>; namespaces: Set<string> } {
  const tags = new Set<string>();
  const namespaces = new Set<string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!isPresentModule(statement.moduleSpecifier.text)) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) namespaces.add(bindings.name.text);
    if (bindings && ts.isNamedImports(bindings)) {
      for (const e of bindings.elements) {
        if (TAG_NAMES.includes((e.propertyName ?? e.name).text)) tags.add(e.name.text);
      }
    }
  }
  return { tags, namespaces };
}

/** The markup of one file written past present's templates; `file` is how violations name it. */
export function markupViolations(file: string, text: string): MarkupViolation[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const { tags, namespaces } = presentTags(source);
  const isPresentTag = (tag: ts.Expression) => {
    if (ts.isIdentifier(tag)) return tags.has(tag.text);
    if (!ts.isPropertyAccessExpression(tag) || !ts.isIdentifier(tag.expression)) return false;
    return namespaces.has(tag.expression.text) && TAG_NAMES.includes(tag.name.text);
  };
  const found = new Map<string, MarkupViolation>();
  const report = (node: ts.Node, rule: MarkupRule) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const key = `${line} ${rule}`;
    const code = node.getText(source).replace(/\s+/g, ' ').slice(0, 100);
    if (!found.has(key)) found.set(key, { file, line, rule, code });
  };
  const withTag = (e: ts.Node) => holdsTag(literalText(e) ?? '');
  const visit = (node: ts.Node): void => {
    const named = ts.isIdentifier(node) || ts.isStringLiteral(node) ? node.text : undefined;
    if (named === 'trustedMarkup') report(node, 'trustedMarkup');
    const plus = ts.isBinaryExpression(node) && PLUS.includes(node.operatorToken.kind) ? node : undefined;
    if (plus && [plus.left, plus.right].some(withTag)) report(node, 'concatenation');
    if ((ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) && withTag(node)) {
      const tagged = ts.isTaggedTemplateExpression(node.parent);
      if (!tagged || !isPresentTag(node.parent.tag)) report(tagged ? node.parent : node, 'template');
    }
    const call = ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) ? node : undefined;
    const method = call && (call.expression as ts.PropertyAccessExpression).name.text;
    if (call && AS_TEXT.has(method!) && call.arguments.some(withTag)) report(node, 'as text');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return [...found.values()].sort((a, b) => a.line - b.line || a.rule.localeCompare(b.rule));
}
