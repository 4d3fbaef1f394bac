// The types of scripts/page-script.js, for the test that holds the generated page script to its source.
export const PAGE_SCRIPT_SOURCE: string;
export const PAGE_SCRIPT_GENERATED: string;
export function generatedPageScript(): string;
export function writePageScript(): boolean;
