// The import graph of a folder of TypeScript as the compiler sees it: specifiers come from TypeScript's own
// pre-processor (any quote style, `import type`, `export … from`, `import()`), and each is resolved by TypeScript's
// module resolution with the project's compiler options (`.js` written for a `.ts` file, folders, extensions). A
// relative specifier that does not resolve is reported, never dropped: a check that cannot see an edge passes it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function compilerOptions(): ts.CompilerOptions {
  const file = join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile);
  if (read.error) throw new Error(`tsconfig.json: ${ts.flattenDiagnosticMessageText(read.error.messageText, '\n')}`);
  return ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT).options;
}

export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

export interface ImportGraph {
  /** file → the files under the folder it imports (type-only imports too: a type import is a dependency). */
  edges: Map<string, string[]>;
  /** "file: 'specifier'" for every relative import TypeScript could not resolve. */
  unresolved: string[];
}

export function importGraph(dir: string): ImportGraph {
  const options = compilerOptions();
  const edges = new Map<string, string[]>();
  const unresolved: string[] = [];
  for (const file of tsFiles(dir)) {
    const targets: string[] = [];
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule;
      if (!resolved) {
        if (fileName.startsWith('.')) unresolved.push(`${file}: '${fileName}'`);
        continue;
      }
      if (!resolved.isExternalLibraryImport && resolved.resolvedFileName.startsWith(dir)) targets.push(resolved.resolvedFileName);
    }
    edges.set(file, targets);
  }
  return { edges, unresolved };
}
