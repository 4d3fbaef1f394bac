// `export lake` writes and deletes only inside the lake (issue 26 §6), with the real CLI over a store synced from the
// simulator: a partition folder replaced by a symbolic link to a folder outside – one the export would rewrite, one
// whose month the manifest lists and the export would delete – or a linked data.parquet is refused with exit 2 and
// one line naming the link, and the files outside, the lake and its manifest are as they were.
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuledger } from '../helpers/cli.ts';
import { copySyncedDatabase } from '../helpers/synced-fixture.ts';
import { tempDir, type TempDir } from '../helpers/temp-dir.ts';

interface ManifestFile {
  path: string;
  table: string;
  account: string;
  family: string;
  month: string;
}

/** Every file under a folder (links not followed) with its bytes and modification time. */
function snapshot(folder: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(folder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(folder, rel);
    const s = statSync(path, { throwIfNoEntry: false });
    if (s?.isFile()) out[rel] = `${s.mtimeMs}:${readFileSync(path).toString('base64')}`;
  }
  return out;
}

describe('export lake never follows a link out of the lake', () => {
  let tmp: TempDir;
  let lake: string;
  let outside: string;
  const exportLake = () => gpuledger(['--db', tmp.db, 'export', 'lake', '--out', lake]);
  const manifestPath = () => join(lake, '_gpuledger_lake.json');
  const manifest = () => JSON.parse(readFileSync(manifestPath(), 'utf8')) as { files: ManifestFile[] };

  beforeAll(async () => {
    tmp = tempDir('gpuledger-lake-links-');
    lake = join(tmp.dir, 'lake');
    outside = join(tmp.dir, 'outside');
    // what a first `gpuledger sync` leaves: the run's synced database (synced-fixture.ts)
    await copySyncedDatabase(tmp.db);
    const first = await exportLake();
    expect(first.code, first.stderr).toBe(0);
  });
  afterAll(async () => {
    tmp?.cleanup();
  });

  it('refuses a partition folder linked outside, to be rewritten and to be deleted, and changes nothing there or in the lake', async () => {
    const files = manifest().files;
    const rewritten = files.find((f) => f.table === 'cost' && f.month === '2026-11')!;
    // a month the manifest lists and the database does not have: the export would delete its file
    const gone = { ...rewritten, month: '2026-09', path: rewritten.path.replace('month=2026-11', 'month=2026-09') };
    writeFileSync(manifestPath(), JSON.stringify({ ...manifest(), files: [...files, gone] }, null, 2));
    // the user's folders outside the lake, each holding a file named as a partition's
    for (const month of ['2026-11', '2026-09']) {
      mkdirSync(join(outside, month), { recursive: true });
      writeFileSync(join(outside, month, 'data.parquet'), `the user's own file for ${month}`);
    }
    const folder = (path: string) => dirname(join(lake, path));
    rmSync(folder(rewritten.path), { recursive: true });
    symlinkSync(join(outside, '2026-11'), folder(rewritten.path));
    symlinkSync(join(outside, '2026-09'), folder(gone.path));
    const outsideBefore = snapshot(outside);
    const lakeBefore = snapshot(lake);

    const r = await exportLake();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `gpuledger: --out ${lake}: ${folder(gone.path)} is a symbolic link, and a lake export writes and deletes only inside the lake; replace it with a real folder or file (or remove it) and export again – nothing was written\n`,
    );
    expect(snapshot(outside)).toEqual(outsideBefore);
    expect(snapshot(lake)).toEqual(lakeBefore);
  });

  it('refuses a linked data.parquet, and exports again once the links are gone', async () => {
    // the folder links of the test above are replaced by a linked file in a real folder
    const files = manifest().files;
    const target = files.find((f) => f.table === 'cost' && f.month === '2026-11')!;
    const folder = dirname(join(lake, target.path));
    rmSync(folder);
    rmSync(dirname(join(lake, target.path.replace('month=2026-11', 'month=2026-09'))));
    mkdirSync(folder);
    symlinkSync(join(outside, '2026-11', 'data.parquet'), join(lake, target.path));
    const outsideBefore = snapshot(outside);

    const r = await exportLake();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^gpuledger: --out ${lake}: ${join(lake, target.path)} is a symbolic link, .* nothing was written\\n$`));
    expect(snapshot(outside)).toEqual(outsideBefore);

    rmSync(join(lake, target.path));
    const again = await exportLake();
    expect(again.code, again.stderr).toBe(0);
    expect(snapshot(outside)).toEqual(outsideBefore);
    expect(manifest().files.some((f) => f.month === '2026-09')).toBe(false);
    expect(statSync(join(lake, target.path)).isFile()).toBe(true);
  });
});
