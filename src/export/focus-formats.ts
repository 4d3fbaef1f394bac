// The formats `export focus` writes: apart from focus.ts so the command line's help and checks load no DuckDB.
export const FOCUS_FORMATS = ['parquet', 'csv'] as const;
export type FocusFormat = (typeof FOCUS_FORMATS)[number];
