// DuckDB's text of a day or an instant, read back as a Date, and an instant moved to the wall clock of a time zone.
// Shared by the workbook's cells (a Date Excel shows) and the pages' text (src/present/value-text.ts): both must read
// the same value as the same moment.
import { tzOffset } from '@date-fns/tz';

/** A timestamp with an offset ("…06:00:01+00"): an instant. Without one it is a wall-clock time already. */
export const HAS_OFFSET = /\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?[+-]\d{2}(?::?\d{2})?$/;
const TS = /^(-?\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?)?$/;

/** DuckDB's text form of a TIMESTAMPTZ ("2026-11-21 06:00:01.5+00"), or of a TIMESTAMP taken as UTC. */
export function parseTimestamp(s: string): Date | undefined {
  const m = TS.exec(s);
  if (!m) return undefined;
  const offset = m[3] ? `${m[3]}:${m[4] ?? '00'}` : 'Z';
  const t = new Date(`${m[1]}T${m[2]}${offset}`);
  return Number.isNaN(t.getTime()) ? undefined : t;
}

/** A UTC instant shifted to the wall clock of timeZone, as the Date Excel should show (Excel has no zones). */
export function wallClock(t: Date, timeZone: string): Date {
  if (timeZone === 'UTC') return t;
  return new Date(t.getTime() + tzOffset(timeZone, t) * 60_000);
}

