// How the explorer's figures and words read, said once for every surface that shows an answer: the /explore page,
// a saved view's page and its `report --view` workbook and HTML page. Figures are exact DECIMAL text, written by the
// model's unitText from micro-dollars (the explorer always read them so), never through a double.
import { categoryLabel, DIMENSIONS, MEASURES, unitCostLabel } from '../model/semantic.ts';
import { unitText } from '../model/index.ts';
import type { Dimension, ExploreRequest } from './request.ts';

export const dimensionLabel = (d: Dimension) => (d.kind === 'plain' ? DIMENSIONS[d.name].label : categoryLabel(d.category));

/** An exact hours figure to the hundredth: finer than the `hours` unit, as the explorer has always shown it. */
export const hoursText = (value: string) => unitText(value, 'hours', { decimals: 2, micros: true });

/** A unit cost in `usd_per_unit` (4 decimals): a cost per image or per job is often below a cent. */
const unitCostText = (value: string) => unitText(value, 'usd_per_unit', { micros: true });

const costText = (value: string) => unitText(value, 'usd', { micros: true });

export const metricName = (r: ExploreRequest) => (r.metric === 'cost' ? MEASURES.cost.label : r.metric === 'gpu_hours' ? MEASURES.gpu_hours.label : unitCostLabel(r.unitMetric!));

export const valueText = (r: ExploreRequest) =>
  r.metric === 'cost' ? costText : r.metric === 'gpu_hours' ? hoursText : unitCostText;

/** The range and unit line every surface of an answer shows first. */
export const rangeLine = (r: ExploreRequest) =>
  `${r.from} – ${r.to}, per ${r.granularity} · ${r.metric === 'cost' ? 'amounts in USD' : r.metric === 'gpu_hours' ? 'estimated GPU-hours' : `USD per ${r.unitMetric}`}`;
