// The database half of the queue sampling (load-account.ts): the samples sample-queue-health.ts read, stored in
// raw_queue_health in one statement. Jobs per day are derived by the views (int_queue_jobs_daily), never stored,
// so a later sample or a corrected rule re-derives all history.
import type { Store } from '../store/database.ts';
import type { QueueHealthHarvest } from './sample-queue-health.ts';

export async function loadQueueHealth(store: Store, runId: string, account: string, health: QueueHealthHarvest | undefined): Promise<number> {
  if (!health || health.samples.length === 0) return 0;
  const rows = health.samples.map((s) => ({
    endpoint_id: s.endpointId,
    endpoint_name: s.endpointName,
    sampled_at: s.sampledAt.toISOString(),
    completed: s.jobs.completed ?? null,
    failed: s.jobs.failed ?? null,
    in_progress: s.jobs.inProgress ?? null,
    in_queue: s.jobs.inQueue ?? null,
    retried: s.jobs.retried ?? null,
    workers: s.workers === null ? null : JSON.stringify(s.workers),
  }));
  // the same second sampled twice (two syncs within one Date header second) keeps the first sample
  await store.run(
    `insert or ignore into raw_queue_health
     select $account, r.endpoint_id, r.endpoint_name, r.sampled_at::timestamptz, r.completed, r.failed, r.in_progress,
            r.in_queue, r.retried, r.workers::json, $run, now()
     from (select unnest(from_json($rows::json, '[{"endpoint_id":"VARCHAR","endpoint_name":"VARCHAR","sampled_at":"VARCHAR","completed":"BIGINT","failed":"BIGINT","in_progress":"BIGINT","in_queue":"BIGINT","retried":"BIGINT","workers":"VARCHAR"}]'), recursive := true)) as r`,
    { account, run: runId, rows: JSON.stringify(rows) },
  );
  return rows.length;
}
