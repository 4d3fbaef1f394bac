// Finding and reading report definitions: the user's folder (config reports.directory) first, then the reports/
// shipped with gpuledger. One file per report, named after it: <name>.yaml, .yml or .json. Errors are one line
// naming the file and the bad key.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describeZodError } from '../../config/load.ts';
import { displayPath } from '../../util/display-path.ts';
import { EXIT, GpuledgerError, UsageError } from '../../util/errors.ts';
import { reportDefinitionSchema, SQL_PARAMETERS, type ReportDefinition } from './schema.ts';
import { resolveSheetReferences, type ReadRawReport } from './sheet-reference.ts';

export const BUILTIN_REPORTS_DIR = fileURLToPath(new URL('../../../reports/', import.meta.url));
const EXTENSIONS = ['.yaml', '.yml', '.json'];

/** A definition file that cannot be used as it is (exit 2, like a bad config file). */
export class ReportDefinitionError extends GpuledgerError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('report_definition', message, EXIT.usage, options);
  }
}

const shown = displayPath;

/** name → file, the user's folder winning over the shipped one. */
export function listReportFiles(userDirectory: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  const dirs = [BUILTIN_REPORTS_DIR, ...(userDirectory ? [resolve(userDirectory)] : [])];
  for (const dir of dirs) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).sort()) {
      if (EXTENSIONS.includes(extname(f))) found.set(basename(f, extname(f)), join(dir, f));
    }
  }
  return found;
}

// `$name` outside string literals and comments; `$1` (positional) and `$$` quoting do not match
const PARAM = /\$([A-Za-z_][A-Za-z0-9_]*)/g;

export function sqlParameters(sql: string): string[] {
  const stripped = sql.replace(/'(?:[^']|'')*'/g, "''").replace(/--[^\n]*/g, '');
  return [...new Set([...stripped.matchAll(PARAM)].map((m) => m[1]!))];
}

function checkParameters(def: ReportDefinition): void {
  const check = (sql: string | undefined, path: string) => {
    if (sql === undefined) return;
    for (const p of sqlParameters(sql)) {
      if (!(p in SQL_PARAMETERS)) {
        const known = Object.keys(SQL_PARAMETERS).map((k) => `$${k}`).join(', ');
        throw new ReportDefinitionError(`report definition ${shown(def.file)}: ${path}: unknown parameter $${p} (known: ${known})`);
      }
    }
  };
  def.sheets.forEach((sheet, i) => {
    if (sheet.kind === 'table') {
      check(sheet.sql, `sheets.${i + 1}.sql`);
      check(sheet.where, `sheets.${i + 1}.where`);
      check(sheet.orderBy, `sheets.${i + 1}.orderBy`);
    } else {
      sheet.blocks.forEach((b, j) => check(b.sql, `sheets.${i + 1}.blocks.${j + 1}.sql`));
      sheet.charts.forEach((c, j) => check(c.sql, `sheets.${i + 1}.charts.${j + 1}.sql`));
    }
  });
}

// A serve warm-up or a nightly run opens the same definitions several times, and the yaml package takes ~70 ms over
// nightly.yaml: the parsed tree of each file's latest text is kept. It is shared, never changed: sheet references
// resolve into new objects and the schema's parse copies what it returns.
const parsed = new Map<string, { text: string; tree: unknown }>();

function parseText(text: string, file: string): unknown {
  const known = parsed.get(file);
  if (known?.text === text) return known.tree;
  try {
    const tree: unknown = extname(file) === '.json' ? JSON.parse(text) : parseYaml(text);
    parsed.set(file, { text, tree });
    return tree;
  } catch (e) {
    const first = (e as Error).message.split('\n')[0];
    throw new ReportDefinitionError(`report definition ${shown(file)}: not valid ${extname(file) === '.json' ? 'JSON' : 'YAML'} (${first})`, { cause: e });
  }
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new ReportDefinitionError(`report definition ${shown(file)}: cannot read it (${(e as NodeJS.ErrnoException).code ?? 'error'})`, { cause: e });
  }
}

/** Other reports, for sheets taken `from:` them: found the same way as the report itself (the user's folder first). */
function rawReports(userDirectory: string | undefined): ReadRawReport {
  return (name) => {
    const files = listReportFiles(userDirectory);
    const file = files.get(name);
    if (!file) return { available: [...files.keys()].sort() };
    return { raw: parseText(readText(file), file), file: shown(file) };
  };
}

/** Parse and check one definition's text; sheets `from:` another report are looked up beside it. */
export function parseReportDefinition(text: string, file: string, userDirectory?: string): ReportDefinition {
  const fail = (path: string, message: string): never => {
    throw new ReportDefinitionError(`report definition ${shown(file)}: ${path}: ${message}`);
  };
  const raw = resolveSheetReferences(parseText(text, file), rawReports(userDirectory), fail);
  const result = reportDefinitionSchema.safeParse(raw);
  if (!result.success) throw new ReportDefinitionError(`report definition ${shown(file)}: ${describeZodError(result.error)}`);
  const name = basename(file, extname(file));
  if (result.data.name !== undefined && result.data.name !== name) {
    throw new ReportDefinitionError(`report definition ${shown(file)}: name: '${result.data.name}' differs from the file name '${name}'; rename one`);
  }
  const def: ReportDefinition = { ...result.data, name, file };
  checkParameters(def);
  return def;
}

export function readReportDefinition(file: string, userDirectory?: string): ReportDefinition {
  return parseReportDefinition(readText(file), file, userDirectory);
}

/** The definition of a report by name, or a usage error listing the reports there are. */
export function loadReportDefinition(name: string, userDirectory: string | undefined): ReportDefinition {
  const files = listReportFiles(userDirectory);
  const file = files.get(name);
  if (!file) {
    const names = [...files.keys()].sort().join(', ') || '(none)';
    throw new UsageError(`no report named '${name}'; available: ${names} (add your own as ${userDirectory ?? 'reports'}/${name}.yaml)`);
  }
  return readReportDefinition(file, userDirectory);
}
