// The layers of src/, held (STYLE.md §17): the order of folders is written once, in docs/CONTRIBUTING.md ("The
// layers"), and this test reads it from there. An import that runs up the order, an import circle between files and
// a folder the map does not name each fail, naming the files.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SRC = join(ROOT, 'src');
const CONTRIBUTING = readFileSync(join(ROOT, 'docs/CONTRIBUTING.md'), 'utf8');

/** The layer order as CONTRIBUTING writes it: one line `layers: a → b c → …` (folders of one step side by side). */
function layerOrder(): Map<string, number> {
  const line = /^layers: (.+)$/m.exec(CONTRIBUTING)?.[1];
  if (!line) throw new Error('docs/CONTRIBUTING.md has no line "layers: util → …"');
  const rank = new Map<string, number>();
  line.split('→').forEach((step, i) => step.trim().split(/\s+/).forEach((folder) => rank.set(folder, i)));
  return rank;
}

/** Leaves outside the order: who may import them, and what they may import. */
function leaves(): Map<string, { importedBy: string[]; imports: string[] }> {
  const out = new Map<string, { importedBy: string[]; imports: string[] }>();
  for (const m of CONTRIBUTING.matchAll(/^leaf: (\S+) imports (.+?); imported by (.+)$/gm)) {
    out.set(m[1]!, { imports: m[2]!.split(/,\s*/), importedBy: m[3]!.split(/,\s*/) });
  }
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every relative import of a file, static or dynamic, type-only included (a type import is a dependency too). */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from\s+|import\s*\(\s*)'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specs.map((s) => resolve(dirname(file), s)).filter((t) => t.startsWith(SRC) && existsSync(t));
}

const folderOf = (file: string) => {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.split('/')[0]! : rel.replace(/\.ts$/, '');
};

const files = tsFiles(SRC);
const graph = new Map(files.map((f) => [f, imports(f)]));

describe('the layers of src/', () => {
  it('has every import go down the documented order (or sideways within a step), and leaves used only as written', () => {
    const rank = layerOrder();
    const leaf = leaves();
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (from === to) continue;
        const line = `${relative(SRC, file)} → ${relative(SRC, target)}`;
        if (leaf.has(from)) {
          if (!leaf.get(from)!.imports.includes(to)) upward.push(`${line} (${from} imports only ${leaf.get(from)!.imports.join(', ')})`);
          continue;
        }
        if (leaf.has(to)) {
          if (!leaf.get(to)!.importedBy.includes(from)) upward.push(`${line} (${to} is imported only by ${leaf.get(to)!.importedBy.join(', ')})`);
          continue;
        }
        if ((rank.get(to) ?? Infinity) > (rank.get(from) ?? -Infinity)) upward.push(`${line} (${to} is above ${from})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('has no import circle between files', () => {
    const circles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        circles.push([...path.slice(path.indexOf(file)), file].map((f) => relative(SRC, f)).join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const t of graph.get(file) ?? []) visit(t, [...path, file]);
      state.set(file, 'done');
    };
    for (const f of files) visit(f, []);
    expect(circles).toEqual([]);
  });

  it('names every folder of src/ in the layer order or as a leaf, and no folder that does not exist', () => {
    const named = new Set([...layerOrder().keys(), ...leaves().keys()]);
    const present = new Set(files.map(folderOf));
    expect([...present].filter((f) => !named.has(f)).sort()).toEqual([]);
    expect([...named].filter((f) => !present.has(f)).sort()).toEqual([]);
  });

  it('describes every folder of src/ in the map of docs/CONTRIBUTING.md', () => {
    const map = /## The map[\s\S]*?```([\s\S]*?)```/.exec(CONTRIBUTING)?.[1] ?? '';
    const folders = readdirSync(SRC, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    expect(folders.filter((f) => !new RegExp(`^  ${f}/`, 'm').test(map)).sort()).toEqual([]);
  });
});
