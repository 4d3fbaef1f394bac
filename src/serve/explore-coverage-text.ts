// The words the explorer page says about what its figures cover (explore/coverage.ts): a partial period's short mark
// under its heading and its bar, the sentence naming each partial period, and what the change compares – the whole
// previous range, or like with like while a day is still loading – in the table's note and in the headline.
import { dayLabel } from '../report/charts/axes.ts';
import { isPartial, type ComparedRanges, type PeriodCoverage } from '../explore/coverage.ts';
import type { ExploreRequest } from '../explore/request.ts';
import { html, type Markup } from '../present/html.ts';
import { addDays, daysInclusive } from '../util/utc-days.ts';
import { MEASURES } from '../model/semantic.ts';

export { partialMark } from '../explore/coverage-marks.ts';

const span = (first: string, last: string) => (first === last ? dayLabel(first) : `${dayLabel(first)} – ${dayLabel(last)}`);

/** The sentence under the chart and the table naming each partial period and why it holds less. */
export function partialNote(a: { request: ExploreRequest; coverage: PeriodCoverage[] }): Markup {
  const g = a.request.granularity;
  const partial = a.coverage.filter(isPartial);
  if (partial.length === 0) return html``;
  const ahead = partial.filter((p) => p.future === p.days);
  const parts = partial
    .filter((p) => p.future < p.days)
    .map((p) => {
      const bits: string[] = [];
      if (g !== 'day' && p.days < p.length) {
        const cut = p.first > p.start ? `the range starts on ${dayLabel(p.first)}` : `the range ends on ${dayLabel(p.last)}`;
        bits.push(`holds ${p.days} of its ${p.length} days (${span(p.first, p.last)}: ${cut})`);
      }
      if (p.loading) bits.push(`${g === 'day' ? 'is' : `${dayLabel(p.loading.day)} is`} loaded only to ${p.loading.to} UTC, the day so far`);
      if (p.future > 0) bits.push(`${p.future} of its days not loaded yet`);
      return `${g === 'day' ? dayLabel(p.start) : `the ${g} of ${dayLabel(p.start)}`} ${bits.join('; ')}`;
    });
  if (ahead.length > 0) parts.push(`${span(ahead[0]!.first, ahead.at(-1)!.last)} ${ahead.length === 1 && ahead[0]!.days === 1 ? 'is' : 'are'} not loaded yet`);
  const sentence = parts.join('; ');
  return html`<p class="note partial-note">Partial ${g === 'day' ? 'days' : `${g}s`} are drawn lighter and hatched: ${sentence.charAt(0).toLowerCase()}${sentence.slice(1)}.</p>`;
}

/** What the change compares, said in words: the whole previous range, or like with like while a day is loading. */
export function changeText(r: ExploreRequest, c: ComparedRanges): string {
  if (c.whole) return `Change: against ${previousText(r)}, the same number of days just before.`;
  const loading = c.loading ? `${dayLabel(c.loading.day)} is loaded only to ${c.loading.to} UTC (the day so far)` : `the range reaches past the loaded days`;
  if (!c.current || !c.previous) return `Change: – no day of the range has ended yet (${loading}), so there is nothing like for like to compare.`;
  const n = daysInclusive(c.current.from, c.current.to);
  return `Change compares like with like: ${span(c.current.from, c.current.to)} against ${span(c.previous.from, c.previous.to)}, the first ${n} ${n === 1 ? 'day' : 'days'} of ${previousText(r)}; ${loading}, so the days from ${dayLabel(addDays(c.current.to, 1))} on count in the totals, not in the change.`;
}

/** The Change column's heading: which days it compares when not the whole range. */
export function changeHeading(c: ComparedRanges): Markup {
  return c.whole ? html`${MEASURES.change.label}` : html`${MEASURES.change.label}<span class="part">${c.current ? `to ${dayLabel(c.current.to)}` : 'none yet'}</span>`;
}

export function previousText(r: ExploreRequest): string {
  const n = daysInclusive(r.from, r.to);
  return `the previous ${n} day${n === 1 ? '' : 's'}`;
}

/** The headline's line when a day is still loading: the change is of the ended days only. */
export function comparedLine(c: ComparedRanges): string {
  const loading = c.loading ? `${dayLabel(c.loading.day)} loaded to ${c.loading.to} UTC so far` : 'the range reaches past the loaded days';
  if (!c.current || !c.previous) return `No change shown: no day of the range has ended yet (${loading})`;
  return `Change: ${span(c.current.from, c.current.to)} against ${span(c.previous.from, c.previous.to)}, ended days only (${loading})`;
}

