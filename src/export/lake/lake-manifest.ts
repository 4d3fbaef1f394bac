// The lake's manifest (issue 21 §3): what each file holds – partition keys, rows, amount sum, a content fingerprint
// computed in DuckDB, its size and modification time, when it was written – and the tables' column types. It is how an
// export knows which files are its own (issue 18 §1: a lake export removes only what an earlier one wrote) and which
// partitions changed; it is written last, atomically, so it never names a file that was not completely written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../outputs/atomic-file.ts';
import { LAKE_TABLES, MANIFEST_NAME, partitionFile } from './lake-layout.ts';

const fileSchema = z
  .object({
    path: z.string(),
    table: z.enum(LAKE_TABLES),
    account: z.string(),
    family: z.string(),
    month: z.string(),
    rows: z.number().int().nonnegative(),
    /** Sum of the amount column, exact (DECIMAL text). */
    amount: z.string().regex(/^-?\d+(\.\d+)?$/),
    fingerprint: z.string().regex(/^-?\d+$/),
    bytes: z.number().int().nonnegative(),
    mtimeMs: z.number(),
    writtenAt: z.string(),
  })
  .strict()
  // a manifest names only files of the lake's own layout: an edited one can never send a delete outside the lake
  .refine((f) => {
    try {
      return f.path === partitionFile(f);
    } catch {
      return false;
    }
  }, 'path must be <table>/account=…/family=…/month=…/data.parquet for its own keys');

const manifestSchema = z
  .object({
    format: z.literal('gpuledger-lake'),
    version: z.literal(1),
    writtenAt: z.string(),
    tables: z.record(z.string(), z.object({ description: z.string(), columns: z.array(z.object({ name: z.string(), type: z.string() })) })),
    files: z.array(fileSchema),
  })
  .strict();

export type LakeManifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileSchema>;

export function emptyManifest(now: Date): LakeManifest {
  return { format: 'gpuledger-lake', version: 1, writtenAt: now.toISOString(), tables: {}, files: [] };
}

export type ManifestRead = { status: 'missing' } | { status: 'ok'; manifest: LakeManifest } | { status: 'unreadable'; reason: string };

export function readManifest(lake: string): ManifestRead {
  let text: string;
  try {
    text = readFileSync(join(lake, MANIFEST_NAME), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { status: 'missing' };
    return { status: 'unreadable', reason: (e as NodeJS.ErrnoException).code ?? 'cannot read it' };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { status: 'unreadable', reason: 'not JSON' };
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { status: 'unreadable', reason: `${issue?.path.join('.') || 'manifest'}: ${issue?.message ?? 'invalid'}` };
  }
  return { status: 'ok', manifest: parsed.data };
}

export function writeManifest(lake: string, manifest: LakeManifest, dbPath: string): void {
  writeFileAtomic(join(lake, MANIFEST_NAME), JSON.stringify(manifest, null, 2) + '\n', dbPath);
}
