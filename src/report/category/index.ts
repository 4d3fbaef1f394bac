// A report rendered per value of an allocation category (showback): the values, each value's files and the
// summary's (per-value.ts), and each value's files to its own recipients (deliver-per-value.ts).
export { categoryValues, checkCategoryFlag, renderCategoryReports, valueSuffixes, type CategoryRendering } from './per-value.ts';
export { categoryRecipients, deliverCategoryReports, type CategoryDelivery } from './deliver-per-value.ts';
