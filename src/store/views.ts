// Views are `create or replace`, applied on every writing open in layer order (staging → marts → reports), so a
// change to a .sql file takes effect the next time gpuledger writes. Inside a layer, a view that reads another
// view of the same layer is retried after the others, so file names need not encode dependencies.
import { StoreError } from '../util/errors.ts';
import type { Store } from './database.ts';
import { headerComment, readSqlFolder, type SqlFile } from './sql-files.ts';

export const VIEW_LAYERS = ['staging', 'marts', 'reports'] as const;

export interface ViewFile extends SqlFile {
  layer: (typeof VIEW_LAYERS)[number];
  /** The header comment: what one row is. */
  description: string;
}

export function listViewFiles(): ViewFile[] {
  return VIEW_LAYERS.flatMap((layer) =>
    readSqlFolder(`views/${layer}`).map((f) => ({ ...f, layer, description: headerComment(f.sql) })),
  );
}

export async function applyViews(store: Store): Promise<void> {
  for (const layer of VIEW_LAYERS) {
    let pending = listViewFiles().filter((v) => v.layer === layer);
    while (pending.length > 0) {
      const failed: { view: ViewFile; error: Error }[] = [];
      for (const view of pending) {
        try {
          await store.run(view.sql);
        } catch (e) {
          failed.push({ view, error: e as Error });
        }
      }
      if (failed.length === pending.length) {
        const { view, error } = failed[0]!;
        throw new StoreError(`view ${view.layer}/${view.name}.sql failed: ${error.message.split('\n')[0]}`, { cause: error });
      }
      pending = failed.map((f) => f.view);
    }
  }
}
