// How the explorer's figures and words read, said once for every surface that shows an answer: the /explore page,
// a saved view's page and its `report --view` workbook and HTML page. Figures are exact DECIMAL text, formatted
// through bigint micros, never a double.
import { decimalStringToMicros } from '../util/decimal.ts';
import { usdText } from '../util/money-text.ts';
import type { PlainDimension } from '../model/explore-vocabulary.ts';
import type { Dimension, ExploreRequest } from './request.ts';

export const DIMENSION_LABELS: Record<PlainDimension, string> = {
  family: 'Family',
  template: 'Template',
  endpoint: 'Endpoint',
  gpu_type: 'GPU type',
  resource: 'Resource',
  account: 'Account',
  component: 'Component',
};

export const dimensionLabel = (d: Dimension) => (d.kind === 'plain' ? DIMENSION_LABELS[d.name] : `Category ${d.category}`);

/** An exact hours figure to 2 decimals, half away from zero. */
export function hoursText(value: string): string {
  const micros = decimalStringToMicros(value);
  const negative = micros < 0n;
  const hundredths = ((negative ? -micros : micros) + 5_000n) / 10_000n;
  const whole = (hundredths / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative && hundredths > 0n ? '-' : ''}${whole}.${(hundredths % 100n).toString().padStart(2, '0')} h`;
}

/** A unit cost to 4 decimals: a cost per image or per job is often below a cent. */
export function unitText(value: string): string {
  const micros = decimalStringToMicros(value);
  const negative = micros < 0n;
  const units = ((negative ? -micros : micros) + 50n) / 100n;
  const whole = (units / 10_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative && units > 0n ? '-' : ''}$${whole}.${(units % 10_000n).toString().padStart(4, '0')}`;
}

export const metricName = (r: ExploreRequest) => (r.metric === 'cost' ? 'Cost' : r.metric === 'gpu_hours' ? 'GPU-hours' : `Cost per ${r.unitMetric}`);

export const valueText = (r: ExploreRequest) => (r.metric === 'cost' ? (v: string) => usdText(v) : r.metric === 'gpu_hours' ? hoursText : unitText);

/** The range and unit line every surface of an answer shows first. */
export const rangeLine = (r: ExploreRequest) =>
  `${r.from} – ${r.to}, per ${r.granularity} · ${r.metric === 'cost' ? 'amounts in USD' : r.metric === 'gpu_hours' ? 'estimated GPU-hours' : `USD per ${r.unitMetric}`}`;
