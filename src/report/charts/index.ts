// Charts: a chart definition's query drawn as SVG (no charting package) and rendered to PNG for the workbook and
// the email.
export { buildChart, type RenderedChart } from './build-chart.ts';
export { findChartFont, renderPng, type ChartFont } from './png.ts';
export { groupChartData, groupChartSvg, type GroupDay } from './group-chart.ts';
export { cumulativeChart, type CumulativeData } from './svg.ts';
