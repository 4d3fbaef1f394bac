// Preloaded with `node --import` in tests: records every module URL the program loads into the file named by
// GPULEDGER_TRACE_IMPORTS, one per line, so a test can assert what a command did not load.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import { appendFileSync } from 'node:fs';
const out = process.env.GPULEDGER_TRACE_IMPORTS;
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (out) appendFileSync(out, r.url + '\\n');
  return r;
}`),
);
