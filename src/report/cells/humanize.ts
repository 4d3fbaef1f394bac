// Column names as people read them: the heading of a sheet column or chart series the definition did not name.
import { COST_FAMILIES, declaredUnit, isCostFamily } from '../../model/index.ts';

const ACRONYMS: Record<string, string> = { gpu: 'GPU', id: 'ID', usd: 'USD', cpu: 'CPU', api: 'API', mtd: 'MTD', pct: '%' };

/** `gpu_type_name` → "GPU type name": a heading for a column the definition did not name. */
export function humanize(field: string): string {
  let words = field.split('_').filter(Boolean).map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  // a duration's cells say their unit ("180.1 h", "345 days"): a heading saying "hours" over days would contradict them
  const unit = declaredUnit(field);
  if ((unit === 'hours' || unit === 'days_from_hours') && words.length > 1) words = words.filter((w) => w !== 'hours');
  const text = words.join(' ').replace(/ %$/, ' %');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The heading of a column the definition did not name: a cost family's column (`storage`) is headed with the model's
 * label for it ("Network Volumes"), so no definition retypes a family's name; any other field is humanized. */
export function columnHeading(field: string): string {
  return isCostFamily(field) ? COST_FAMILIES[field].label : humanize(field);
}
