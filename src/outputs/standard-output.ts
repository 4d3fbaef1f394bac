// `--out -` and `--out /dev/stdout` mean the standard output (issue 26 §7): such a path is no file to replace
// atomically – a temporary file "beside" /dev/stdout is a path under /proc that cannot exist, and `-` would become a
// file named "-" – so the command writes to the stream itself.
import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';

/** What a checked output path is when it is the standard output. */
export const STANDARD_OUTPUT = '-';

/** The spellings of this process's standard output as a path. */
const NAMES = new Set(['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1', `/proc/${process.pid}/fd/1`]);

/** Whether an output path names the standard output: `-`, /dev/stdout, /dev/fd/1 or /proc/self/fd/1. */
export function isStandardOutput(path: string): boolean {
  return path === '-' || NAMES.has(resolve(path));
}

/** Copy a finished file to the standard output, resolving once it is all handed over. */
export async function copyToStandardOutput(file: string, stdout: NodeJS.WritableStream = process.stdout): Promise<void> {
  await pipeline(createReadStream(file), stdout, { end: false });
}
