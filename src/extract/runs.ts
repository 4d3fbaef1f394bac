// The run log (_meta_runs): one row per sync, written when it starts (status running) and when it ends. A row
// still "running" when the next writer opens the database belongs to a process that died (the write lock proves
// nobody else is writing), so it is closed as "interrupted" – the next sync re-reads whatever it had not committed.
import { randomUUID } from 'node:crypto';
import type { Store } from '../store/database.ts';
import { redact } from '../util/secrets.ts';

export type RunStatus = 'running' | 'success' | 'partial' | 'failed' | 'interrupted';

export interface RunCounters {
  requests: number;
  retries: number;
  rateLimited: number;
}

export async function closeInterruptedRuns(store: Store): Promise<number> {
  const rows = await store.all(
    `update _meta_runs set status = 'interrupted', finished_at = coalesce(finished_at, now())
     where status = 'running' returning run_id`,
  );
  return rows.length;
}

export async function startRun(store: Store, command: string, args: string): Promise<string> {
  const runId = randomUUID();
  await store.run(
    `insert into _meta_runs (run_id, command, args, started_at, status) values ($id, $command, $args, now(), 'running')`,
    { id: runId, command, args: redact(args) },
  );
  return runId;
}

export async function finishRun(
  store: Store,
  runId: string,
  status: Exclude<RunStatus, 'running'>,
  counters: RunCounters,
  errors: Array<{ account: string; source: string; message: string }>,
  summary: unknown,
): Promise<void> {
  await store.run(
    `update _meta_runs set finished_at = now(), status = $status, requests = $requests, retries = $retries,
            rate_limited = $limited, errors = $errors::json, summary = $summary::json
     where run_id = $id`,
    {
      id: runId,
      status,
      requests: counters.requests,
      retries: counters.retries,
      limited: counters.rateLimited,
      errors: redact(JSON.stringify(errors)),
      summary: redact(JSON.stringify(summary, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))),
    },
  );
}
