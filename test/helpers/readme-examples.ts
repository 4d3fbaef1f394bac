// The command lines README.md shows a user: every `gpuledger …` (also `npx gpuledger …`, `node bin/gpuledger.js …`)
// in a shell code block – a command continued with `\`, a quoted argument over several lines and a heredoc each make
// one command – and every `gpuledger …` code span of a table cell that starts with one (the Commands table's examples,
// `gpuledger run --no-email` (the demo: `gpuledger run --demo`) gives two). The heredocs that write a file the examples
// read (`cat > images.csv <<'CSV'`) are collected as setup, the other shell lines (`duckdb -readonly …`, `npm start`)
// as others, and a comment line right after a command (`# 2026-11-30  33.801201 …`) as what it prints.

export interface ReadmeCommand {
  /** 1-based line of README.md where the command starts. */
  line: number;
  /** The command as a shell runs it: comments removed, `npx gpuledger` and `node bin/gpuledger.js` spelled `gpuledger`. */
  command: string;
  /** The exit code the README promises: a comment that is `exit N` (or `→ exit N`, optionally `: why`), else 0. */
  expectCode: number;
  from: 'code block' | 'table';
  /** The output the README shows for it: the comment lines right after it in its block, without the `#`. */
  printed?: string[];
}

export interface ReadmeExamples {
  commands: ReadmeCommand[];
  /** Shell commands that write a file the examples read (heredocs), in README order. */
  setup: ReadmeCommand[];
  /** Every other command of a shell block (not gpuledger, not a heredoc): `npm start`, `duckdb …`, `export X=…`. */
  others: ReadmeCommand[];
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'zsh']);
const INVOKES = /(^|[\s;&|(`])(npx\s+|node\s+bin\/gpuledger\.js\b)?gpuledger(\s|$)|node\s+bin\/gpuledger\.js(\s|$)/;

/** Whether the text ends inside a quote, and the text without its comments (`# …` outside quotes). */
export function scanShell(text: string): { open: boolean; code: string; comments: string[] } {
  let quote: '"' | "'" | undefined;
  let code = '';
  const comments: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') {
        code += c + (text[i + 1] ?? '');
        i++;
        continue;
      }
      code += c;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      const end = text.indexOf('\n', i);
      comments.push(text.slice(i + 1, end === -1 ? undefined : end).trim());
      i = end === -1 ? text.length : end - 1;
      continue;
    }
    code += c;
  }
  return { open: quote !== undefined, code: code.replace(/[ \t]+$/gm, '').trim(), comments };
}

function promisedCode(comments: readonly string[]): number {
  for (const c of comments) {
    // `# exit 2` or `# → exit 2: why` – not a sentence that merely mentions an exit code (`exit 1 when …`)
    const m = /^(?:→\s*)?exits?\s+(\d)\s*(?:$|[:;,(–—-])/.exec(c);
    if (m) return Number(m[1]);
  }
  return 0;
}

function spelledForShell(code: string): string {
  return code.replace(/\bnpx\s+gpuledger\b/g, 'gpuledger').replace(/\bnode\s+bin\/gpuledger\.js\b/g, 'gpuledger');
}

function shellBlock(body: readonly string[], firstLine: number, out: ReadmeExamples): void {
  let buf: string[] = [];
  let start = 0;
  let heredoc: string | undefined;
  /** The gpuledger command just read, while only comment lines follow it: they are what it prints. */
  let last: ReadmeCommand | undefined;
  const finish = () => {
    const text = buf.join('\n');
    buf = [];
    const { code, comments } = scanShell(text);
    if (code === '') {
      if (last && comments.length > 0 && promisedCode(comments) === 0) (last.printed ??= []).push(...comments);
      else last = undefined;
      return;
    }
    const command: ReadmeCommand = { line: start, command: spelledForShell(code), expectCode: promisedCode(comments), from: 'code block' };
    last = undefined;
    if (INVOKES.test(code)) {
      out.commands.push(command);
      last = command;
    } else if (/<<-?\s*['"]?\w+/.test(code) && />\s*\S/.test(code.split('\n')[0]!)) out.setup.push(command);
    else out.others.push(command);
  };
  for (const [i, line] of body.entries()) {
    if (buf.length === 0) start = firstLine + i;
    buf.push(line);
    if (heredoc !== undefined) {
      if (line.trim() === heredoc) {
        heredoc = undefined;
        finish();
      }
      continue;
    }
    const joined = buf.join('\n');
    if (/\\$/.test(line) || scanShell(joined).open) continue;
    const here = /<<-?\s*['"]?(\w+)['"]?/.exec(scanShell(joined).code);
    if (here) {
      heredoc = here[1];
      continue;
    }
    finish();
  }
  if (buf.length > 0) finish();
}

export function readmeExamples(markdown: string): ReadmeExamples {
  const out: ReadmeExamples = { commands: [], setup: [], others: [] };
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const fence = /^\s*(```+|~~~+)\s*([\w-]*)/.exec(lines[i]!);
    if (fence) {
      const close = fence[1]!;
      // a block inside a list item is indented like its fence
      const indent = ' '.repeat(lines[i]!.length - lines[i]!.trimStart().length);
      const body: string[] = [];
      let j = i + 1;
      for (; j < lines.length && !lines[j]!.trim().startsWith(close); j++) body.push(lines[j]!.startsWith(indent) ? lines[j]!.slice(indent.length) : lines[j]!.trimStart());
      const lang = fence[2]!.toLowerCase();
      // a console transcript: the lines after a `$ ` prompt are commands, the rest is their output
      if (lang === 'console') shellBlock(body.map((l) => (l.startsWith('$ ') ? l.slice(2) : '')), i + 2, out);
      else if (SHELL_LANGS.has(lang)) shellBlock(body, i + 2, out);
      i = j;
      continue;
    }
    if (lines[i]!.trimStart().startsWith('|')) {
      for (const cell of lines[i]!.split('|')) {
        // an example cell starts with its command; a sentence that mentions one (`see \`gpuledger …\``) is prose
        const first = /^`([^`]+)`/.exec(cell.trim());
        if (!first || !INVOKES.test(first[1]!)) continue;
        for (const span of cell.matchAll(/`([^`]+)`/g)) {
          if (INVOKES.test(span[1]!)) out.commands.push({ line: i + 1, command: spelledForShell(span[1]!), expectCode: 0, from: 'table' });
        }
      }
    }
  }
  return out;
}
