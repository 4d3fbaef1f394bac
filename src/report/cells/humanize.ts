// Column names as people read them: the heading of a sheet column or chart series the definition did not name.
const ACRONYMS: Record<string, string> = { gpu: 'GPU', id: 'ID', usd: 'USD', cpu: 'CPU', api: 'API', mtd: 'MTD', pct: '%' };

/** `gpu_type_name` → "GPU type name": a heading for a column the definition did not name. */
export function humanize(field: string): string {
  const words = field.split('_').filter(Boolean).map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  const text = words.join(' ').replace(/ %$/, ' %');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
