// The demo's simulated account must keep its past from one `npm start` to the next, as a real account does: the
// simulator makes its account as of an anchor (simulator/start.ts), so the demo remembers the anchor of its first run
// beside its database and starts the simulator from it again. Without that, each run made a new account – a different
// past, and top-ups with new amounts at the same times (issue 25 §2). The synthetic account ends 90 days after its
// anchor; past 80 days the demo begins a new one (a new past: the demo database then holds two histories).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { checkFileOutput } from '../outputs/output-guard.ts';
import { writeFileAtomic } from '../outputs/atomic-file.ts';
import { ConfigError } from '../util/errors.ts';

// a UTC day is exactly 86,400,000 ms: an age compared in plain milliseconds needs no date library
const DAY = 86_400_000;
const MAX_AGE_DAYS = 80;

const anchorFile = z.object({
  anchor: z.string().datetime({ offset: true }).describe('the simulated account is made as of this time (RFC 3339)'),
});

/** Where the demo keeps its anchor: beside the demo database, under a name that is none of the store's. */
export function demoAnchorPath(dbPath: string): string {
  return join(dirname(dbPath), 'demo-simulator.json');
}

/** The anchor of the demo's earlier runs, or `now` (written down) when there is none or it is too old. */
export function demoAnchor(dbPath: string, now: Date): Date {
  const path = demoAnchorPath(dbPath);
  if (existsSync(path)) {
    let text: unknown;
    try {
      text = JSON.parse(readFileSync(path, 'utf8'));
    } catch (e) {
      throw new ConfigError(`${path} is not JSON (${(e as Error).message}); delete it to let the demo start a new simulated account`);
    }
    const parsed = anchorFile.safeParse(text);
    if (!parsed.success) throw new ConfigError(`${path} must be {"anchor": "<RFC 3339 time>"}; delete it to let the demo start a new simulated account`);
    const anchor = new Date(parsed.data.anchor);
    if (now.getTime() - anchor.getTime() < MAX_AGE_DAYS * DAY && anchor.getTime() <= now.getTime()) return anchor;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(checkFileOutput({ flag: 'the demo anchor', path, dbPath }), `${JSON.stringify({ anchor: now.toISOString() })}\n`, dbPath);
  return now;
}
