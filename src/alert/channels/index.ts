// Channels from the config. Built before any rule runs, so a missing webhook secret or SMTP section is a
// configuration error (exit 2) before anything is evaluated or recorded.
import { resolve } from 'node:path';
import type { Config } from '../../config/schema.ts';
import { createMailer, type Mailer } from '../../mail/index.ts';
import { checkFileOutput } from '../../outputs/output-guard.ts';
import { ConfigError } from '../../util/errors.ts';
import type { Logger } from '../../util/log.ts';
import type { Channel } from './channel.ts';
import { emailChannel } from './email.ts';
import { fileChannel } from './file.ts';
import { stdoutChannel } from './stdout.ts';
import { webhookChannel } from './webhook.ts';

export interface ChannelOptions {
  outDir: string;
  /** The database whose files no channel may write (issue 18 §1). */
  dbPath: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  logger?: Logger;
  /** A mailer to use instead of one built from config.smtp (the nightly job shares its own). */
  mailer?: Mailer;
}

export function defaultAlertsFile(outDir: string): string {
  return resolve(outDir, 'alerts.ndjson');
}

type FileChannelConfig = Extract<Config['alerts']['channels'][number], { type: 'file' }>;

/** The file a file channel appends to, checked like any output: never the database or its side files, never a folder. */
function fileChannelPath(c: FileChannelConfig, index: number, options: Pick<ChannelOptions, 'outDir' | 'dbPath'>): string {
  const flag = c.path ? `config alerts.channels[${index}].path` : 'config outDir (alerts.ndjson)';
  return checkFileOutput({ flag, path: c.path ? resolve(c.path) : defaultAlertsFile(options.outDir), dbPath: options.dbPath });
}

/** Check every file channel's path up front (the nightly job, before it syncs); throws OutputRefusedError (exit 2). */
export function checkFileChannels(config: Config, options: Pick<ChannelOptions, 'outDir' | 'dbPath'>): void {
  config.alerts.channels.forEach((c, i) => {
    if (c.type === 'file') fileChannelPath(c, i, options);
  });
}

export function buildChannels(config: Config, options: ChannelOptions): Channel[] {
  return config.alerts.channels.map((c, i) => {
    switch (c.type) {
      case 'stdout':
        return stdoutChannel(c.minSeverity, options.stdout);
      case 'file':
        return fileChannel(fileChannelPath(c, i, options), c.minSeverity);
      case 'webhook':
        return webhookChannel(c, options.env);
      case 'email': {
        if (!config.smtp && !options.mailer) {
          throw new ConfigError('alerts.channels has an email channel but the config has no smtp section; add smtp {host, from, …} or remove the channel');
        }
        return emailChannel(options.mailer ?? createMailer(config.smtp!, { env: options.env, logger: options.logger }), c.to, c.minSeverity);
      }
    }
  });
}

export type { Channel } from './channel.ts';
