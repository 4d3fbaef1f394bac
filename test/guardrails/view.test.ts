// rpt_guardrail_actions (issue 40 §5): each action with its state, the hourly cost it stopped and the spend it
// avoided until it was undone or until the report's clock – given audit rows, expect the rows a person reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/database.ts';
import { openMigratedStore, tmpDbPath } from '../helpers/view-store.ts';

let store: Store;
beforeAll(async () => {
  store = await openMigratedStore(tmpDbPath('gpuledger-guardrail-view-'));
  const row = (id: string, kind: string, undoes: string | null, outcome: string | null, cost: string | null, completed: string | null) =>
    store.run(
      `insert into _meta_guardrail_actions (action_id, proposal_id, kind, undoes, rule, account, resource_type, resource_id, resource_name, action,
         state_before, state_target, request, trigger_figure, hourly_cost, approved_by, intended_at, outcome, outcome_detail, state_after, completed_at)
       values ($1, 'gp', $2, $3, 'brake', 'sim', 'pod', 'p1', 'dev-1', 'stop-pods', '{"status":"RUNNING"}', '{"status":"EXITED"}', 'POST …', 'budget x',
         $4::decimal(18,6), 'automatic (rule brake)', timestamptz '2026-11-20 09:59:00+00', $5, null, null, $6::timestamptz)`,
      [id, kind, undoes, cost, outcome, completed],
    );
  await row('gp-1', 'act', null, 'done', '0.690000', '2026-11-20 10:00:00+00');
  await row('gp-1.undo-1', 'undo', 'gp-1', 'done', null, '2026-11-20 16:00:00+00');
  await row('gp-2', 'act', null, 'done', '1.500000', '2026-11-20 18:00:00+00');
  await row('gp-3', 'act', null, 'forbidden', '2.000000', '2026-11-20 18:00:00+00');
  await row('gp-4', 'act', null, null, '2.000000', null);
  await store.run(`set variable gpuledger_as_of = timestamptz '2026-11-21 00:00:00+00'`);
});
afterAll(() => store?.close());

describe('rpt_guardrail_actions', () => {
  it('prices each done action from its hourly cost over the hours until its undo or the clock; nothing for the others', async () => {
    const rows = await store.all(
      `select action_id, status, undone_at::varchar as undone_at, hourly_cost::varchar as hourly_cost, hours_stopped::varchar as hours, spend_avoided::varchar as avoided
       from rpt_guardrail_actions order by action_id`,
    );
    expect(rows).toEqual([
      { action_id: 'gp-1', status: 'done', undone_at: '2026-11-20 16:00:00+00', hourly_cost: '0.690000', hours: '6.0', avoided: '4.14' },
      { action_id: 'gp-2', status: 'done', undone_at: null, hourly_cost: '1.500000', hours: '6.0', avoided: '9.00' },
      { action_id: 'gp-3', status: 'forbidden', undone_at: null, hourly_cost: '2.000000', hours: null, avoided: null },
      { action_id: 'gp-4', status: null, undone_at: null, hourly_cost: '2.000000', hours: null, avoided: null },
    ]);
  });
});
