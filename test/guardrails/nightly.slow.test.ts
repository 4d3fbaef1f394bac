// The nightly run applies the automatic guardrails after the alerts and lists the manual proposals with the exact
// command that approves them (issue 40 §2); it never carries out a manual one.
import { afterAll, expect, it } from 'vitest';
import { gpuledger } from '../helpers/cli.ts';
import { auditRows, guardrailRig, podWrites, runningPods, type GuardrailRig } from '../helpers/guardrails.ts';
import { KEY } from '../helpers/sync.ts';

let rig: GuardrailRig | undefined;
afterAll(() => rig?.close());

it('runs the automatic rule, lists the manual proposal with its approve command, and stops nothing manual', { timeout: 600_000 }, async () => {
  let pod = '';
  rig = await guardrailRig(async (sim) => {
    pod = (await runningPods(sim))[0]!.id;
    return [
      { name: 'idle', trigger: { kind: 'waste', finding: 'idle_min_workers' }, action: 'workers-min-to-zero', approval: 'automatic' },
      { name: 'ask', trigger: { kind: 'budget', budget: 'gpu-month' }, action: 'stop-pods', scope: { resource: pod } },
    ];
  });
  const run = await gpuledger(['--config', rig.config, '--db', rig.db, 'run', '--out-dir', rig.dir], { GPULEDGER_TEST_KEY: KEY });
  const said = run.stdout + run.stderr;
  expect(said).toMatch(/guardrails: ok – 1 automatic action carried out; 1 manual proposal waiting \(saves ~\$[\d,.]+\/day\) – approve with: gpuledger guardrails apply --approve g[0-9a-f]{10}/);
  expect(podWrites(rig.sim)).toBe(0);
  const idle = rig.sim.account.endpoints.find((e) => e.id === rig!.sim.account.planted.idleMinWorkersEndpoint.id)!;
  expect(idle.workersMin).toBe(0);
  const rows = await auditRows(rig.db);
  expect(rows.map((r) => [r.rule, r.outcome, r.approved_by])).toEqual([['idle', 'done', 'automatic (rule idle)']]);

  // undo puts back the worker counts the action found
  const before = JSON.parse(rows[0]!.state_before!) as { workersMin: number; workersMax: number };
  expect(before.workersMin).toBeGreaterThan(0);
  const undo = await rig.run(['undo', rows[0]!.action_id!]);
  expect(undo.code, undo.stderr).toBe(0);
  expect(idle.workersMin).toBe(before.workersMin);
  expect(idle.workersMax).toBe(before.workersMax);
  const undone = (await auditRows(rig.db)).at(-1)!;
  expect(undone).toMatchObject({ kind: 'undo', outcome: 'done', request: `PATCH /v2/serverless/${idle.id} {"workersMin":${before.workersMin},"workersMax":${before.workersMax}}` });
});
