// The ledger: the one source of truth for money. Every billing answer – HTTP routes and the test-facing `Ledger` –
// is derived from the meters' rounded hours (meter-sums.ts), so any bucket size over any window gives the same
// money to the micro-dollar, totals are sums of records, and the aggregate equals the sum of the family routes.
import { addBuckets, ceilToBucket, floorToBucket, formatRfc3339 } from '../../util/buckets.ts';
import type { SyntheticAccount } from '../account/types.ts';
import { DAY, HOUR, MINUTE, ceilTo, floorTo } from '../time.ts';
import { createMeterSums, type MeterSums } from './meter-sums.ts';
import { createMeters } from './meters.ts';
import { AGGREGATE_OFFSET, FAMILY_SOURCES, SOURCE_FIELDS, SOURCES, type BillingSource, type FamilySource, type SourceDef } from './sources.ts';
import { TooManyRecordsError, type Amounts, type LedgerInternal, type RecordTable, type TableQuery } from './types.ts';

export function createLedger(account: SyntheticAccount, nowMs: () => number, defaultSparse: boolean): LedgerInternal {
  const spanStart = account.historyStart.getTime();
  const spanDays = Math.round((account.horizonEnd.getTime() - spanStart) / DAY);
  const all: MeterSums[] = createMeters(account).map((m) => createMeterSums(m, SOURCES[m.source].components.length, spanStart, spanDays));
  const bySource = new Map<FamilySource, MeterSums[]>(FAMILY_SOURCES.map((s) => [s, []]));
  for (const s of all) bySource.get(s.meter.source)!.push(s);
  for (const list of bySource.values()) list.sort((x, y) => ((x.meter.id ?? '') < (y.meter.id ?? '') ? -1 : 1));

  const metersOf = (source: BillingSource, resourceId: string | null | undefined): MeterSums[] => {
    if (source === 'aggregate') return all;
    const list = bySource.get(source)!;
    return resourceId == null || SOURCES[source].idField === null ? list : list.filter((s) => s.meter.id === resourceId);
  };

  /** Component sums of [a, b) for `source` into out (aggregate: each family at its offset). */
  const addSums = (source: BillingSource, sums: MeterSums[], a: number, b: number, now: number, out: Float64Array) => {
    for (const s of sums) s.add(a, b, now, out, source === 'aggregate' ? AGGREGATE_OFFSET[s.meter.source as FamilySource] : 0);
  };

  /** Field values (total first when the route has components) from component sums. */
  const toFields = (def: SourceDef, comps: Float64Array, out: Float64Array, at: number): number => {
    const k = def.components.length;
    if (def.fields.length === k) {
      for (let c = 0; c < k; c++) out[at + c] = comps[c]!;
      return comps[0]!;
    }
    let total = 0;
    for (let c = 0; c < k; c++) {
      out[at + 1 + c] = comps[c]!;
      total += comps[c]!;
    }
    out[at] = total;
    return total;
  };

  const table = (q: TableQuery): RecordTable => {
    const def = SOURCES[q.source];
    const F = def.fields.length;
    const now = nowMs();
    const bucketStarts: number[] = [];
    const bucketEnds: number[] = [];
    // records of buckets that start after now are not returned
    for (let t = new Date(q.start); t.getTime() < q.end && t.getTime() <= now; ) {
      const next = addBuckets(t, q.bucketSize, 1);
      bucketStarts.push(t.getTime());
      bucketEnds.push(next.getTime());
      t = next;
    }
    const comps = new Float64Array(def.components.length);
    let series: MeterSums[][];
    const ids: string[] = [];
    if (def.idField === null) {
      series = [metersOf(q.source, null)];
    } else {
      // dense grid: every resource with a non-zero amount in the window, for every bucket
      series = [];
      for (const s of metersOf(q.source, q.resourceId)) {
        comps.fill(0);
        s.add(q.start, q.end, now, comps, 0);
        if (comps.some((x) => x > 0)) {
          series.push([s]);
          ids.push(s.meter.id!);
        }
      }
    }
    const capacity = bucketStarts.length * series.length;
    if (q.maxRecords !== undefined && capacity > q.maxRecords) throw new TooManyRecordsError(capacity, q.maxRecords);
    const bucketOf = new Uint32Array(capacity);
    const resourceOf = new Int32Array(capacity);
    const amounts = new Float64Array(capacity * F);
    const totals = new Float64Array(F);
    const seen = new Uint8Array(series.length);
    let count = 0;
    for (let b = 0; b < bucketStarts.length; b++) {
      for (let r = 0; r < series.length; r++) {
        comps.fill(0);
        addSums(q.source, series[r]!, bucketStarts[b]!, bucketEnds[b]!, now, comps);
        const total = toFields(def, comps, amounts, count * F);
        if (q.sparse && total === 0) continue;
        for (let f = 0; f < F; f++) totals[f]! += amounts[count * F + f]!;
        bucketOf[count] = b;
        resourceOf[count] = def.idField === null ? -1 : r;
        seen[r] = 1;
        count++;
      }
    }
    return {
      def, bucketStarts, bucketEnds, count, bucketOf, resourceOf, ids,
      amounts, totals, uniqueCount: def.idField === null ? 0 : seen.reduce((n, x) => n + x, 0),
    };
  };

  const toAmounts = <S extends BillingSource>(def: SourceDef, values: Float64Array, at: number): Amounts<S> => {
    const out: Record<string, bigint> = {};
    def.fields.forEach((f, i) => (out[f] = BigInt(values[at + i]!)));
    return out as Amounts<S>;
  };

  return {
    now: () => new Date(nowMs()),
    fields: (source) => SOURCE_FIELDS[source],
    resourceIds: (source) => (source === 'aggregate' || SOURCES[source].idField === null ? [] : bySource.get(source)!.map((s) => s.meter.id!)),
    sum(query) {
      const def = SOURCES[query.source];
      const comps = new Float64Array(def.components.length);
      const a = floorTo(query.start.getTime(), HOUR);
      const b = ceilTo(query.end.getTime(), HOUR);
      addSums(query.source, metersOf(query.source, query.resourceId ?? null), a, b, nowMs(), comps);
      const fields = new Float64Array(def.fields.length);
      toFields(def, comps, fields, 0);
      return toAmounts(def, fields, 0);
    },
    records(source, start, end, bucketSize, options = {}) {
      const t = table({
        source,
        start: floorToBucket(start, bucketSize).getTime(),
        end: ceilToBucket(end, bucketSize).getTime(),
        bucketSize,
        resourceId: options.resourceId ?? null,
        sparse: options.sparse ?? defaultSparse,
      });
      const F = t.def.fields.length;
      return Array.from({ length: t.count }, (_, i) => ({
        startTime: formatRfc3339(new Date(t.bucketStarts[t.bucketOf[i]!]!)),
        endTime: formatRfc3339(new Date(t.bucketEnds[t.bucketOf[i]!]!)),
        resourceId: t.resourceOf[i]! >= 0 ? t.ids[t.resourceOf[i]!]! : null,
        amounts: toAmounts(t.def, t.amounts, i * F),
      }));
    },
    table,
    finalTotal(a, b) {
      // every hour as it will finally be reported: a `now` past the horizon makes no hour open or preliminary
      const comps = new Float64Array(SOURCES.aggregate.components.length);
      addSums('aggregate', all, floorTo(a, HOUR), ceilTo(b, HOUR), account.horizonEnd.getTime() + 2 * HOUR, comps);
      return comps.reduce((x, y) => x + y, 0);
    },
    resourceChanged(resourceId) {
      for (const s of all) if (s.meter.id === resourceId) s.invalidate();
    },
    spendRatePerHour(at) {
      // what everything accrues in the minute from `at`, times 60: the burn rate of what is running at `at`
      let rate = 0;
      for (const s of all) {
        if (at < s.meter.from || at >= s.meter.to) continue;
        const out = new Float64Array(s.k);
        s.meter.accrue(at, at + MINUTE, out);
        for (const x of out) rate += x * 60;
      }
      return rate;
    },
  };
}
