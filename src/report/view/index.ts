// A saved view of the config rendered as a workbook sheet and an HTML page (`report --view`), shaped as a rendered
// report for the delivery.
export { renderView, type RenderedView, type RenderViewOptions } from './render-view.ts';
