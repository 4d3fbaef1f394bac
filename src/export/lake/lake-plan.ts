// Which files an export writes, keeps and removes (issue 21 §3). A partition is rewritten when its content
// fingerprint differs from the manifest's, or when its file is not the one the manifest describes (missing, another
// size or modification time: an interrupted export, a copy tool, a person) – so a lake left half-updated by a killed
// export is repaired by the next one. Partitions whose data is gone are removed.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { partitionFile, partitionId, type PartitionKey } from './lake-layout.ts';
import type { LakeManifest, ManifestFile } from './lake-manifest.ts';

/** A partition as the database has it now (lake_partitions.sql). */
export interface SourcePartition extends PartitionKey {
  rows: number;
  amount: string;
  fingerprint: string;
}

export interface LakePlan {
  write: SourcePartition[];
  keep: ManifestFile[];
  remove: ManifestFile[];
}

function fileMatches(lake: string, file: ManifestFile): boolean {
  try {
    const s = statSync(join(lake, file.path));
    return s.isFile() && s.size === file.bytes && s.mtimeMs === file.mtimeMs;
  } catch {
    return false;
  }
}

export function planLake(lake: string, source: readonly SourcePartition[], manifest: LakeManifest | undefined): LakePlan {
  const known = new Map((manifest?.files ?? []).map((f) => [partitionId(f), f]));
  const plan: LakePlan = { write: [], keep: [], remove: [] };
  const wanted = new Set<string>();
  for (const p of source) {
    const id = partitionId(p);
    wanted.add(id);
    const file = known.get(id);
    if (file && file.fingerprint === p.fingerprint && file.rows === p.rows && file.amount === p.amount && file.path === partitionFile(p) && fileMatches(lake, file)) {
      plan.keep.push(file);
    } else plan.write.push(p);
  }
  for (const [id, file] of known) if (!wanted.has(id)) plan.remove.push(file);
  return plan;
}
