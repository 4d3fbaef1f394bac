// What is at a path, for the checks that run before anything is written (output-guard.ts, cli/paths.ts).
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export type PathKind = 'file' | 'folder' | 'other';

/** A file, a folder, something else (device, pipe, socket), or undefined when nothing is there. Follows symlinks. */
export function pathKind(path: string): PathKind | undefined {
  try {
    const s = statSync(path);
    return s.isDirectory() ? 'folder' : s.isFile() ? 'file' : 'other';
  } catch {
    return undefined;
  }
}

/** The nearest part of `path` that exists (the path itself, a parent, … the root). */
export function nearestExisting(path: string): { at: string; kind: PathKind } {
  for (let at = resolve(path); ; at = dirname(at)) {
    const kind = pathKind(at);
    if (kind !== undefined || dirname(at) === at) return { at, kind: kind ?? 'folder' };
  }
}
