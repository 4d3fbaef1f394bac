// `gpuledger allocation explain [--category NAME] [--resource ID]` – which rule put each resource's cost where, the
// rules that gave their value to nothing, and the largest unallocated resources (src/allocation/explain.ts).
import type { Command } from 'commander';
import type { Explanation } from '../../allocation/explain.ts';
import { UsageError } from '../../util/errors.ts';
import type { ExitState } from '../exit-state.ts';
import { defaultFormat, emit, OUTPUT_FORMATS, parseOutputFormat, type Column, type Table, print } from '../output.ts';

interface ExplainFlags {
  category?: string;
  resource?: string;
  top?: string;
  format?: string;
}

const text = (name: string): Column => ({ name, kind: 'text' });
const RESOURCE_COLUMNS = [text('category'), text('account'), text('family'), text('resource_id'), text('resource_name'), text('value')];

function sections(e: Explanation): { title: string; table: Table }[] {
  return [
    {
      title: 'Resources: the rule that matched each (rule empty: the default)',
      table: {
        columns: [...RESOURCE_COLUMNS, { name: 'rule', kind: 'number' }, text('matched_on'), { name: 'amount', kind: 'exact-number' }],
        rows: e.resources.map((r) => [r.category, r.account, r.family, r.resource_id, r.resource_name, r.value, r.rule, r.matched_on, r.amount]),
      },
    },
    {
      title: 'Rules that gave their value to no cost',
      table: {
        columns: [text('category'), { name: 'rule', kind: 'number' }, text('value'), text('match'), text('reason')],
        rows: e.unusedRules.map((r) => [r.category, r.rule, r.value, r.match, r.reason]),
      },
    },
    {
      title: 'Largest unallocated resources (no rule matched)',
      table: {
        columns: [...RESOURCE_COLUMNS, { name: 'amount', kind: 'exact-number' }],
        rows: e.unallocated.map((r) => [r.category, r.account, r.family, r.resource_id, r.resource_name, r.value, r.amount]),
      },
    },
  ];
}

/** Machine formats get one table: each section's rows under the union of the columns, with a `section` column. */
function combined(e: Explanation): Table {
  const names = ['resource', 'unused_rule', 'unallocated'];
  const parts = sections(e);
  const columns: Column[] = [text('section')];
  for (const p of parts) for (const c of p.table.columns) if (!columns.some((x) => x.name === c.name)) columns.push(c);
  const rows = parts.flatMap((p, i) =>
    p.table.rows.map((row) => [names[i], ...columns.slice(1).map((c) => {
      const at = p.table.columns.findIndex((x) => x.name === c.name);
      return at < 0 ? null : row[at];
    })]),
  );
  return { columns, rows };
}

export function registerAllocation(program: Command, _exit: ExitState): void {
  const allocation = program.command('allocation').description('allocation of cost to teams, projects or cost centers');
  allocation
    .command('explain')
    .option('--category <name>', 'only this category')
    .option('--resource <id>', 'only this resource (id or name)')
    .option('--top <n>', 'how many of the largest unallocated resources to list', '10')
    .option('--format <format>', `${OUTPUT_FORMATS.join(', ')} (default: tables on a terminal, ndjson in a pipe)`)
    .description('show which rule put each resource where, rules that matched nothing, and the largest unallocated resources')
    .action(async (flags: ExplainFlags, command: Command) => {
      const format = flags.format ? parseOutputFormat(flags.format) : defaultFormat(undefined, Boolean(process.stdout.isTTY));
      const top = Number(flags.top);
      if (!Number.isInteger(top) || top < 0) throw new UsageError(`--top takes a whole number ≥ 0, got '${flags.top}'`);
      // DuckDB and the allocation SQL load only when the command runs, so --help and other commands start fast
      const [{ contextFor }, { withRulesReader }, { explainAllocation }] = await Promise.all([
        import('../context.ts'),
        import('../../allocation/reader-rules.ts'),
        import('../../allocation/explain.ts'),
      ]);
      const { settings } = contextFor(command);
      // the explanation is of the rules in the config file now, read without writing (reader-rules.ts)
      const explanation = await withRulesReader(settings.dbPath, settings.config.allocation, (store) =>
        explainAllocation(store, { category: flags.category, resource: flags.resource, top }),
      );
      if (format !== 'table') return emit(combined(explanation), { format });
      for (const [i, s] of sections(explanation).entries()) {
        print(`${i > 0 ? '\n' : ''}${s.title}`);
        emit(s.table, { format });
      }
    });
}
