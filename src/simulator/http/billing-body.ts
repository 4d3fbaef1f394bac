// Writes a billing answer straight from the ledger's columnar table into JSON chunks – no per-record objects, one
// number-to-string per amount (a large account's year of daily pod buckets is ~300k records, ~50 MB).
// Shape and key order as in billing-api-v2.md §2:
//   {"records":[{"startTime","endTime",<id>?,<amounts>}…],
//    "metadata":{"query":{…},"recordCount":n,<uniqueCount>?,"totals":{…}}}
// Amounts are integer micro-dollars written as exact shortest-form JSON numbers (µ$ / 1e6: one correctly rounded
// division of two exact doubles, the same number microsToNumber gives).
import { formatRfc3339 } from '../../util/buckets.ts';
import type { RecordTable } from '../ledger/types.ts';
import type { BillingQuery } from './billing-query.ts';

const CHUNK_CHARS = 1 << 20;

export interface DriftChoice {
  recordPick: number;
  fieldPick: number;
}

/** Drifted answers drop one required amount field from every 50th record, starting at a drawn record. */
const DRIFT_STRIDE = 50;

export function writeBillingBody(table: RecordTable, query: BillingQuery, drift: DriftChoice | null = null): Buffer[] {
  const { def } = table;
  const F = def.fields.length;
  const keys = def.fields.map((f) => `"${f}":`);
  const bucketHead = table.bucketStarts.map(
    (s, b) => `{"startTime":"${formatRfc3339(new Date(s))}","endTime":"${formatRfc3339(new Date(table.bucketEnds[b]!))}",`,
  );
  const idPart = table.ids.map((id) => `"${def.idField}":${JSON.stringify(id)},`);
  const driftStart = drift && table.count > 0 ? Math.floor(drift.recordPick * Math.min(DRIFT_STRIDE, table.count)) : -1;
  // drift removes a component when there are components, else the only field (totalAmount)
  const driftField = drift ? (F > 1 ? 1 + Math.floor(drift.fieldPick * (F - 1)) : 0) : -1;

  // amounts repeat a lot (a pod running all day bills the same every day): format each distinct one once
  const formatted = new Map<number, string>();
  const money = (micros: number): string => {
    let text = formatted.get(micros);
    if (text === undefined) formatted.set(micros, (text = String(micros / 1e6)));
    return text;
  };

  const chunks: Buffer[] = [];
  let s = '{"records":[';
  const { amounts, bucketOf, resourceOf } = table;
  for (let i = 0; i < table.count; i++) {
    s += i === 0 ? bucketHead[bucketOf[i]!]! : ',' + bucketHead[bucketOf[i]!]!;
    const r = resourceOf[i]!;
    if (r >= 0) s += idPart[r]!;
    const drifted = driftStart >= 0 && i >= driftStart && (i - driftStart) % DRIFT_STRIDE === 0;
    let first = true;
    for (let f = 0; f < F; f++) {
      if (drifted && f === driftField) continue;
      s += (first ? '' : ',') + keys[f]! + money(amounts[i * F + f]!);
      first = false;
    }
    s += '}';
    if (s.length > CHUNK_CHARS) {
      chunks.push(Buffer.from(s, 'latin1')); // record text is ASCII: generated ids, timestamps, numbers
      s = '';
    }
  }
  const echo: Record<string, string | null> = {
    startTime: formatRfc3339(new Date(query.start)),
    endTime: formatRfc3339(new Date(query.end)),
    bucketSize: query.bucketSize,
  };
  if (def.filterParam !== null) echo[def.filterParam] = query.resourceId;
  s += `],"metadata":{"query":${JSON.stringify(echo)},"recordCount":${table.count},`;
  if (def.uniqueCountKey !== null) s += `"${def.uniqueCountKey}":${table.uniqueCount},`;
  s += '"totals":{' + def.fields.map((f, i) => keys[i]! + table.totals[i]! / 1e6).join(',') + '}}}';
  chunks.push(Buffer.from(s));
  return chunks;
}
