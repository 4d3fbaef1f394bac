// A file's path as gpuledger shows it to people – in a report's About section, the workbook's metadata, messages:
// never the machine's absolute layout (a page or workbook is mailed on). Relative to the working folder when the file
// is under it, the shipped definitions by their place in the package, anything else under the home folder as ~/…,
// and otherwise by the file's name alone.
import { homedir } from 'node:os';
import { basename, isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

function inside(folder: string, file: string): string | undefined {
  const rel = relative(folder, file);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : undefined;
}

export function displayPath(file: string, cwd = process.cwd()): string {
  const full = resolve(cwd, file);
  const underCwd = inside(cwd, full);
  if (underCwd !== undefined) return underCwd;
  const shipped = inside(PACKAGE_ROOT, full);
  if (shipped !== undefined) return `gpuledger's ${shipped.split(sep).join('/')}`;
  const home = homedir();
  const underHome = home && home !== sep ? inside(home, full) : undefined;
  if (underHome !== undefined) return `~/${underHome.split(sep).join('/')}`;
  return basename(full);
}
