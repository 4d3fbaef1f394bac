// The layers of src/, held (STYLE.md §17): the order of folders is written once, in docs/CONTRIBUTING.md ("The
// layers"), and this test reads it from there. An import that runs up the order, an import circle between files and
// a folder the map does not name each fail, naming the files.
import { appendFileSync, cpSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph, tsFiles } from './helpers/import-graph.ts';
import { tempDir } from './helpers/temp-dir.ts';

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

const folderOf = (file: string) => {
  const rel = relative(SRC, file);
  return rel.includes('/') ? rel.split('/')[0]! : rel.replace(/\.ts$/, '');
};

/** Imports that run up the order or use a leaf other than as written, in the tree at `src` (the real one, or a copy with a violation put in). */
export function upwardImports(src: string, graph: Map<string, string[]>): string[] {
  const rank = layerOrder();
  const leaf = leaves();
  const folderIn = (file: string) => {
    const rel = relative(src, file);
    return rel.includes('/') ? rel.split('/')[0]! : rel.replace(/\.ts$/, '');
  };
  const upward: string[] = [];
  for (const [file, targets] of graph) {
    const from = folderIn(file);
    for (const target of targets) {
      const to = folderIn(target);
      if (from === to) continue;
      const line = `${relative(src, file)} → ${relative(src, target)}`;
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
  return upward;
}

const files = tsFiles(SRC);
const { edges: graph, unresolved } = importGraph(SRC);

describe('the layers of src/', () => {
  it('has every import go down the documented order (or sideways within a step), and leaves used only as written', () => {
    expect(upwardImports(SRC, graph)).toEqual([]);
  });

  it('resolves every relative import of src/ (an import the check cannot follow would pass unseen)', () => {
    expect(unresolved).toEqual([]);
  });

  it('sees an upward import however it is written: double quotes, export … from, import(), a .js extension', () => {
    // a copy of src/ with violations put in: util is the lowest layer, report and cli are far above it
    const copy = join(tempDir('gpuledger-layout-').dir, 'src');
    try {
      cpSync(SRC, copy, { recursive: true });
      const log = join(copy, 'util', 'log.ts');
      appendFileSync(log, [
        'import { VERSION as V1 } from "../version.ts";',
        'import { reportPage } from "../report/html/render-html.ts";',
        "export { startServe } from '../serve/server.js';",
        'export const later = () => import(`../cli/main.ts`).then(() => import("../cli/output.ts"));',
        "import type { Config } from '../config';",
        '',
      ].join('\n'));
      const injected = importGraph(copy);
      const found = upwardImports(copy, injected.edges).filter((l) => l.startsWith('util/log.ts'));
      expect(found.map((l) => l.split(' (')[0])).toEqual(expect.arrayContaining([
        'util/log.ts → report/html/render-html.ts',
        'util/log.ts → serve/server.ts',
        'util/log.ts → cli/output.ts',
      ]));
      // './config' is a folder without an index: unresolved, and said so rather than dropped
      expect(injected.unresolved.some((u) => u.endsWith("'../config'"))).toBe(true);
    } finally {
      rmSync(dirname(copy), { recursive: true, force: true });
    }
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
