// The pages `gpuledger serve` computes as soon as a new file is published (page-warmer.ts), so the first person to
// open one gets an answer already made: each configured report at its default period, then the pages its navigation
// leads to. A declared list: a new page whose first sight should be instant adds a line here (its own default URL),
// most visited first – the warm-up computes them one at a time in this order.
import { resolve } from 'node:path';
import type { Config } from '../config/schema.ts';
import { listReportFiles, loadReportDefinition } from '../report/index.ts';

/** The URLs (path and query) a page family wants ready after a publish, given the config serve runs with. */
export type DefaultPages = (config: Config) => string[];

export const DEFAULT_PAGES: DefaultPages[] = [
  // nightly first: `/` leads there; a report at its default period is the URL without ?period=
  (config) => {
    const directory = resolve(config.reports.directory);
    // a report rendered per allocation value (showback) has no page of its own to warm: `report --category` makes its files
    const names = [...listReportFiles(directory).keys()].filter((name) => loadReportDefinition(name, directory).category === undefined);
    return [...names.filter((name) => name === 'nightly'), ...names.filter((name) => name !== 'nightly')].map((name) => `/report/${name}`);
  },
  // the explorer's default (month to date by family), second in the navigation, then the config's saved views – a
  // view whose filter value is in no row is said in the log as soon as the file is published (config/views.ts)
  (config) => ['/explore', ...config.views.map((v) => `/explore/${v.name}`)],
  // the views behind the report: the pages its navigation links to
  () => ['/view/rpt_unit_cost', '/view/rpt_runway', '/drill', '/allocation', '/alerts', '/views'],
];

/** Every default page once, in the declared order. */
export function defaultPages(config: Config, declared: readonly DefaultPages[] = DEFAULT_PAGES): string[] {
  return [...new Set(declared.flatMap((pages) => pages(config)))];
}
