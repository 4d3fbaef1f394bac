// The records of `gpuledger billing` in the platform CLI's shapes: JSON (default) and YAML records
// {time, amount, podId|endpointId|gpuId}, or a table with a totals line, or CSV. Amounts stay exact.
import { stringify } from 'yaml';
import { numberLiteral, renderOutput, type Table } from '../util/table-text.ts';
import { decimalStringToMicros, microsToNumber, sumDecimalStrings } from '../util/decimal.ts';
import { UsageError } from '../util/errors.ts';
import { BILLING_OUTPUTS, type BillingOutput } from './billing-kinds.ts';
import type { BillingResult } from './billing.ts';

export { BILLING_OUTPUTS, type BillingOutput };

export function parseBillingOutput(value: string): BillingOutput {
  if (!(BILLING_OUTPUTS as readonly string[]).includes(value)) {
    throw new UsageError(`-o/--output must be one of ${BILLING_OUTPUTS.join(', ')}, got '${value}'`);
  }
  return value as BillingOutput;
}

function asTable(result: BillingResult): Table {
  const columns: Table['columns'] = [{ name: 'time', kind: 'text' }];
  if (result.idField) columns.push({ name: result.idField, kind: 'text' });
  columns.push({ name: 'amount', kind: 'exact-number' });
  const rows = result.records.map((r) => (result.idField ? [r.time, r.id ?? null, r.amount] : [r.time, r.amount]));
  return { columns, rows };
}

export function renderBilling(result: BillingResult, output: BillingOutput): string {
  switch (output) {
    case 'json': {
      // written by hand so that amounts are the DECIMAL's own digits, never a double's
      const lines = result.records.map((r) => {
        const id = result.idField ? `,${JSON.stringify(result.idField)}:${JSON.stringify(r.id ?? null)}` : '';
        return `  {"time":${JSON.stringify(r.time)},"amount":${numberLiteral(r.amount)}${id}}`;
      });
      return lines.length ? `[\n${lines.join(',\n')}\n]\n` : '[]\n';
    }
    case 'yaml': {
      // below $1e9 a micro-dollar amount round-trips through a double's shortest form exactly (util/decimal.ts)
      const docs = result.records.map((r) => ({
        time: r.time,
        amount: microsToNumber(decimalStringToMicros(r.amount)),
        ...(result.idField ? { [result.idField]: r.id ?? null } : {}),
      }));
      return stringify(docs);
    }
    case 'csv':
      return renderOutput(asTable(result), 'csv');
    case 'table': {
      const table = asTable(result);
      const total = sumDecimalStrings(result.records.map((r) => r.amount));
      const window = `${result.start.toISOString().replace(/\.000Z$/, 'Z')} – ${result.end.toISOString().replace(/\.000Z$/, 'Z')}`;
      table.footer = [`total ${total} USD over ${result.records.length} record(s), ${window}`];
      return renderOutput(table, 'table');
    }
  }
}
