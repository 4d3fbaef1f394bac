// The file a file channel appends to, checked like any output (src/outputs/): never the database or its side files,
// never a folder. Kept apart from the channels themselves so commands can check it before loading anything heavy.
import { resolve } from 'node:path';
import type { Config } from '../../config/schema.ts';
import { checkFileOutput } from '../../outputs/output-guard.ts';

type FileChannelConfig = Extract<Config['alerts']['channels'][number], { type: 'file' }>;

export interface FileChannelPlace {
  /** Where `alerts.ndjson` goes when a file channel names no path. */
  outDir: string;
  /** The database whose files no channel may write (issue 18 §1). */
  dbPath: string;
}

export function defaultAlertsFile(outDir: string): string {
  return resolve(outDir, 'alerts.ndjson');
}

/** The checked path of the file channel at `index` in alerts.channels; throws OutputRefusedError (exit 2). */
export function fileChannelPath(c: FileChannelConfig, index: number, place: FileChannelPlace): string {
  const flag = c.path ? `config alerts.channels[${index}].path` : 'config outDir (alerts.ndjson)';
  return checkFileOutput({ flag, path: c.path ? resolve(c.path) : defaultAlertsFile(place.outDir), dbPath: place.dbPath });
}

/** Check every file channel's path up front, before a command opens the database or syncs. */
export function checkFileChannels(config: Config, place: FileChannelPlace): void {
  config.alerts.channels.forEach((c, i) => {
    if (c.type === 'file') fileChannelPath(c, i, place);
  });
}
