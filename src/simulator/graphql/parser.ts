// A small real GraphQL parser for what the deprecated GraphQL API is asked (billing-api-v2.md §4): one or more
// operations with optional keyword, name and variable definitions; nested selection sets with aliases and
// arguments; whitespace, commas and # comments ignored. Fragments and directives are refused with a clear message.
// Messages follow graphql-js ("Syntax Error: Expected Name, found "}".").

export interface FieldNode {
  alias: string | null;
  name: string;
  args: string[];
  selections: FieldNode[] | null;
  line: number;
  column: number;
}

export interface OperationNode {
  operation: 'query' | 'mutation' | 'subscription';
  name: string | null;
  selections: FieldNode[];
}

export class GraphQLSyntaxError extends Error {
  constructor(message: string, readonly line: number, readonly column: number) {
    super(message);
  }
}

type TokenKind = 'punct' | 'name' | 'number' | 'string' | 'eof';
interface Token {
  kind: TokenKind;
  value: string;
  line: number;
  column: number;
}

const PUNCT = new Set(['!', '$', '&', '(', ')', ':', '=', '@', '[', ']', '{', '|', '}']);

function tokenize(src: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const at = (kind: TokenKind, value: string, start: number): Token => ({ kind, value, line, column: start - lineStart + 1 });
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === '\n') {
      i++;
      line++;
      lineStart = i;
    } else if (ch === ' ' || ch === '\t' || ch === '\r' || ch === ',' || ch === '\ufeff') {
      i++;
    } else if (ch === '#') {
      while (i < src.length && src[i] !== '\n') i++;
    } else if (PUNCT.has(ch)) {
      tokens.push(at('punct', ch, i));
      i++;
    } else if (src.startsWith('...', i)) {
      tokens.push(at('punct', '...', i));
      i += 3;
    } else if (/[_A-Za-z]/.test(ch)) {
      const start = i;
      while (i < src.length && /[_0-9A-Za-z]/.test(src[i]!)) i++;
      tokens.push(at('name', src.slice(start, i), start));
    } else if (/[-0-9]/.test(ch)) {
      const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(src.slice(i));
      if (!m) throw new GraphQLSyntaxError(`Syntax Error: Invalid number, unexpected character ${JSON.stringify(ch)}.`, line, i - lineStart + 1);
      tokens.push(at('number', m[0], i));
      i += m[0].length;
    } else if (ch === '"') {
      const start = i;
      const block = src.startsWith('"""', i);
      const close = block ? src.indexOf('"""', i + 3) : (() => {
        let j = i + 1;
        while (j < src.length && src[j] !== '"' && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
        return src[j] === '"' ? j : -1;
      })();
      if (close < 0) throw new GraphQLSyntaxError('Syntax Error: Unterminated string.', line, start - lineStart + 1);
      const end = close + (block ? 3 : 1);
      tokens.push(at('string', src.slice(start, end), start));
      for (let j = start; j < end; j++) if (src[j] === '\n') { line++; lineStart = j + 1; }
      i = end;
    } else {
      throw new GraphQLSyntaxError(`Syntax Error: Unexpected character: ${JSON.stringify(ch)}.`, line, i - lineStart + 1);
    }
  }
  tokens.push({ kind: 'eof', value: '', line, column: i - lineStart + 1 });
  return tokens;
}

const describe = (t: Token) => (t.kind === 'eof' ? '<EOF>' : t.kind === 'name' ? `Name "${t.value}"` : t.kind === 'punct' ? `"${t.value}"` : t.value);

export function parseDocument(src: string): OperationNode[] {
  const tokens = tokenize(src);
  let p = 0;
  const peek = () => tokens[p]!;
  const fail = (expected: string, t = peek()): never => {
    throw new GraphQLSyntaxError(`Syntax Error: Expected ${expected}, found ${describe(t)}.`, t.line, t.column);
  };
  const isPunct = (v: string) => peek().kind === 'punct' && peek().value === v;
  const expectPunct = (v: string) => (isPunct(v) ? tokens[p++]! : fail(`"${v}"`));
  const expectName = () => (peek().kind === 'name' ? tokens[p++]! : fail('Name'));
  const unsupported = (what: string): never => {
    const t = peek();
    throw new GraphQLSyntaxError(`${what} are not supported by this server.`, t.line, t.column);
  };

  const skipValue = (): void => {
    const t = peek();
    if (isPunct('$')) {
      p++;
      expectName();
    } else if (t.kind === 'name' || t.kind === 'number' || t.kind === 'string') {
      p++;
    } else if (isPunct('[')) {
      p++;
      while (!isPunct(']')) {
        if (peek().kind === 'eof') fail('"]"');
        skipValue();
      }
      p++;
    } else if (isPunct('{')) {
      p++;
      while (!isPunct('}')) {
        expectName();
        expectPunct(':');
        skipValue();
      }
      p++;
    } else {
      fail('Value');
    }
  };
  const skipType = (): void => {
    if (isPunct('[')) {
      p++;
      skipType();
      expectPunct(']');
    } else {
      expectName();
    }
    if (isPunct('!')) p++;
  };

  const parseSelectionSet = (): FieldNode[] => {
    expectPunct('{');
    const fields: FieldNode[] = [];
    do {
      if (isPunct('...')) unsupported('Fragments');
      const first = expectName();
      let alias: string | null = null;
      let name = first.value;
      if (isPunct(':')) {
        p++;
        alias = first.value;
        name = expectName().value;
      }
      const args: string[] = [];
      if (isPunct('(')) {
        p++;
        do {
          args.push(expectName().value);
          expectPunct(':');
          skipValue();
        } while (!isPunct(')'));
        p++;
      }
      if (isPunct('@')) unsupported('Directives');
      const selections = isPunct('{') ? parseSelectionSet() : null;
      fields.push({ alias, name, args, selections, line: first.line, column: first.column });
    } while (!isPunct('}'));
    p++;
    return fields;
  };

  const operations: OperationNode[] = [];
  do {
    if (isPunct('{')) {
      operations.push({ operation: 'query', name: null, selections: parseSelectionSet() });
      continue;
    }
    const keyword = expectName();
    if (keyword.value === 'fragment') {
      p--;
      unsupported('Fragments');
    }
    if (keyword.value !== 'query' && keyword.value !== 'mutation' && keyword.value !== 'subscription') {
      p--;
      fail('"{", "query", "mutation" or "subscription"');
    }
    const name = peek().kind === 'name' ? tokens[p++]!.value : null;
    if (isPunct('(')) {
      p++;
      do {
        expectPunct('$');
        expectName();
        expectPunct(':');
        skipType();
        if (isPunct('=')) {
          p++;
          skipValue();
        }
      } while (!isPunct(')'));
      p++;
    }
    if (isPunct('@')) unsupported('Directives');
    operations.push({ operation: keyword.value as OperationNode['operation'], name, selections: parseSelectionSet() });
  } while (peek().kind !== 'eof');
  return operations;
}
