// The cost model, said once: which billing routes exist and what each amount field becomes (billing-sources/), each
// inventory document's fields and route (inventory-documents/), what
// the families and components are called (cost-families.ts), and what every column a person reads is measured in
// (units.ts, unit-text.ts); the dimensions and measures a person groups and reads cost by are semantic.ts's. The bottom of the layers above util: the API client,
// config, extract, store, report and alerts import it; it imports nothing of theirs.
export * from './billing-sources/index.ts';
export * from './cost-families.ts';
export * from './inventory-documents/index.ts';
export * from './units.ts';
export * from './unit-text.ts';
