// Values as text are written by the presentation layer (src/present/value-text.ts), which the pages, the email and
// the summary's notes share; the cells keep the name they had.
export { valueText as formatText, instantText } from '../../present/value-text.ts';
