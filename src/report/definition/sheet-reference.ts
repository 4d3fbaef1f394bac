// A sheet taken from another report: `{ from: nightly, sheet: Waste }` in a definition's sheets stands for that
// report's sheet as written there – its SQL, columns and formats – so two workbooks that show the same table say it
// once. `name`, `title` and `description` may be given to retitle it. References are resolved on the raw
// definition, before it is checked, so the borrowed sheet is checked like any other.
import { z } from 'zod';
import { issuePath } from '../../util/zod-path.ts';

export const sheetReferenceSchema = z
  .object({
    from: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a report name (lowercase letters, digits and dashes)').describe('The report whose sheet this reuses, e.g. nightly.'),
    sheet: z.string().min(1).describe('The name of the sheet in that report.'),
    name: z.string().min(1).optional().describe('Sheet (tab) name here (default: the same).'),
    title: z.string().min(1).optional().describe('Title here (default: the same).'),
    description: z.string().min(1).optional().describe('The line under the title here (default: the same).'),
  })
  .strict();

type Raw = Record<string, unknown>;

/** Another report's raw definition by name, or the names there are. */
export type ReadRawReport = (name: string) => { raw: unknown; file: string } | { available: string[] };

const isObject = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The raw definition with every sheet reference replaced by the sheet it names. Throws `fail(path, message)` for a
 * bad reference: an unknown report or sheet, or a circle of references.
 */
export function resolveSheetReferences(raw: unknown, read: ReadRawReport, fail: (path: string, message: string) => never, chain: string[] = []): unknown {
  if (!isObject(raw) || !Array.isArray(raw.sheets)) return raw;
  const sheets = raw.sheets.map((sheet: unknown, i: number) => {
    if (!isObject(sheet) || !('from' in sheet)) return sheet;
    const parsed = sheetReferenceSchema.safeParse(sheet);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      fail(issuePath(['sheets', i, ...issue.path]), issue.message);
    }
    const ref = parsed.data;
    const key = `${ref.from}/${ref.sheet}`;
    if (chain.includes(key)) fail(`sheets.${i + 1}.from`, `sheet references go in a circle (${[...chain, key].join(' → ')})`);
    const other = read(ref.from);
    if ('available' in other) fail(`sheets.${i + 1}.from`, `no report named '${ref.from}' (available: ${other.available.join(', ')})`);
    const resolved = resolveSheetReferences(other.raw, read, fail, [...chain, key]) as Raw;
    const found = (Array.isArray(resolved.sheets) ? resolved.sheets : []).find((s: unknown) => isObject(s) && s.name === ref.sheet) as Raw | undefined;
    if (!found) {
      const names = (Array.isArray(resolved.sheets) ? resolved.sheets : []).map((s: unknown) => (isObject(s) ? String(s.name) : '?'));
      fail(`sheets.${i + 1}.sheet`, `${other.file} has no sheet '${ref.sheet}' (it has ${names.join(', ')})`);
    }
    const { from: _from, sheet: _sheet, ...overrides } = ref;
    return { ...found, ...overrides };
  });
  return { ...raw, sheets };
}
