// Channels from the config. Built before any rule runs, so a missing webhook secret or SMTP section is a
// configuration error (exit 2) before anything is evaluated or recorded.
import type { Config } from '../../config/schema.ts';
import { createMailer, type Mailer } from '../../mail/index.ts';
import { ConfigError } from '../../util/errors.ts';
import type { Logger } from '../../util/log.ts';
import type { Channel } from './channel.ts';
import { emailChannel } from './email.ts';
import { fileChannel } from './file.ts';
import { fileChannelPath } from './file-path.ts';
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
export { checkFileChannels, defaultAlertsFile } from './file-path.ts';
