// Period: which days a report covers (--period, the definition's default) and the clock its views are evaluated at.
export { DEFAULT_PERIODS, parsePeriod, PERIOD_USAGE, type ReportPeriod } from './period.ts';
export { resetReportVariables, setReportClock, type ReportClock } from './report-clock.ts';
