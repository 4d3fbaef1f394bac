// What went wrong with the export target, in one line and with the exit code its type carries (DESIGN.md):
//   2 (ConfigError) – the settings are wrong: password refused, unknown user or database, no right to create the schema;
//   1 (ExportTargetError) – the server could not be reached, went away mid-export, or refused a statement.
// In every case the export's single transaction was not committed, so the previous export is intact – the messages
// say so, and a rerun finishes the job. Node-postgres never puts the password in an error; messages name the
// environment variable, never its value.
import { ConfigError, ExportTargetError, isGpuledgerError, type GpuledgerError } from '../../util/errors.ts';
import type { PostgresTarget } from './connect.ts';

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EAI_AGAIN', 'ECONNRESET', 'EPIPE']);
// SQLSTATE class 57 (operator intervention: shutdown, crash, cancel) and class 08 (connection exceptions)
const WENT_AWAY_STATE = /^(57P0[1-4]|08\d\d\d)$/;
const WENT_AWAY_TEXT = /Connection terminated|Client was closed|Client has encountered a connection error|terminating connection|server closed the connection/i;

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim();
}

export function targetError(e: unknown, target: PostgresTarget, phase: 'connect' | 'export'): GpuledgerError | unknown {
  if (isGpuledgerError(e)) return e;
  const where = `PostgreSQL at ${target.url.display}`;
  const code = (e as { code?: unknown }).code;
  const state = typeof code === 'string' ? code : '';
  const untouched = phase === 'connect' ? 'nothing was exported' : 'nothing of this run was committed and the previous export is intact';
  if (state === '28P01') return new ConfigError(`${where} refused the password of user ${target.url.user} (read from ${target.passwordEnv}); ${untouched}`, { cause: e });
  if (state === '28000') return new ConfigError(`${where} refused user ${target.url.user}: ${firstLine(e)}; ${untouched}`, { cause: e });
  if (state === '3D000') return new ConfigError(`${where} has no database ${target.url.database}; ${untouched}`, { cause: e });
  if (state === '42501') {
    return new ConfigError(
      `${where}: user ${target.url.user} lacks a privilege the export needs (${firstLine(e)}); create schema ${target.schema} owned by that user, or grant it CREATE on the database; ${untouched}`,
      { cause: e },
    );
  }
  if (phase === 'connect' && (UNREACHABLE.has(state) || /timeout|Connection terminated/i.test(firstLine(e)))) {
    return new ExportTargetError(`cannot reach ${where} (${state || firstLine(e)}); ${untouched}`, { cause: e });
  }
  if (WENT_AWAY_STATE.test(state) || UNREACHABLE.has(state) || WENT_AWAY_TEXT.test(firstLine(e))) {
    return new ExportTargetError(`${where} went away during the export (${firstLine(e)}); ${untouched} – run the export again`, { cause: e });
  }
  if (state && /^[0-9A-Z]{5}$/.test(state)) {
    return new ExportTargetError(`${where} refused the export: ${firstLine(e)} (SQLSTATE ${state}); ${untouched}`, { cause: e });
  }
  return e;
}
