// `gpuledger serve [--host H] [--port P] [--allow-host NAME]… [--sql-time-limit S]`: the report, drill-downs, views and
// a SQL page in a browser, read-only, until SIGINT/SIGTERM. Loopback by default; another address needs
// GPULEDGER_SERVE_TOKEN (32 characters or more) and says so at start.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { UsageError } from '../../util/errors.ts';
import { readSecretEnv } from '../../util/secrets.ts';
import type { ExitState } from '../exit-state.ts';
import { print } from '../output.ts';
import { untilStopped } from '../until-stopped.ts';
import { collect } from '../option-values.ts';

interface ServeFlags {
  host: string;
  port: string;
  allowHost: string[];
  sqlTimeLimit: string;
}

export function registerServe(program: Command, _exit: ExitState): void {
  program
    .command('serve')
    .description('serve the reports, drill-downs, views and a read-only SQL page in a browser (read-only, loopback by default)')
    .option('--host <host>', 'address to listen on; anything but loopback needs GPULEDGER_SERVE_TOKEN', '127.0.0.1')
    .option('--port <port>', 'port (0 = any free port)', '8080')
    .option('--allow-host <name>', 'a name (or name:port) the server also answers to, e.g. behind a reverse proxy; repeatable', collect, [])
    .option('--sql-time-limit <seconds>', 'the longest a SQL page or its CSV may take', '30')
    .action(async (flags: ServeFlags, command: Command) => {
      const port = Number(flags.port);
      if (!/^\d+$/.test(flags.port) || port > 65535) throw new UsageError(`--port must be an integer from 0 to 65535, got '${flags.port}'`);
      const seconds = Number(flags.sqlTimeLimit);
      if (!/^\d+(\.\d+)?$/.test(flags.sqlTimeLimit) || seconds <= 0 || seconds > 3600) {
        throw new UsageError(`--sql-time-limit must be a number of seconds above 0 and at most 3600, got '${flags.sqlTimeLimit}'`);
      }
      const [{ contextFor }, { startServe, TOKEN_ENV }] = await Promise.all([import('../context.ts'), import('../../serve/index.ts')]);
      const { settings, log } = contextFor(command);
      const token = readSecretEnv(TOKEN_ENV, process.env) || undefined;
      const running = await startServe({ dbPath: settings.dbPath, config: settings.config, host: flags.host, port, token, allowHosts: flags.allowHost, sqlTimeLimitMs: seconds * 1000, log });
      print(`gpuledger serve on ${running.url}/report/nightly (${running.protection}; read-only; Ctrl-C stops)`);
      // not an error: the pages say what to run, and show the database once it is published
      if (!existsSync(settings.dbPath)) log.warn(`no database at ${settings.dbPath} yet: run npm start (the demo) or gpuledger sync; the pages follow when it appears`);
      await untilStopped();
      await running.close();
    });
}
