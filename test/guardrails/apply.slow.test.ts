// Guardrails against the simulator over HTTP (issue 40 "Done when"): a budget crossing with an automatic rule stops
// exactly the pods in scope – none in `except`, never more than the cap – and the next sync bills them only their
// disk; a manual rule only proposes until approved; undo starts the pod again; an already-stopped pod is a recorded
// no-op. Every figure is read where a person reads it: the CLI's lines, the database's audit rows and billing views.
import { afterEach, describe, expect, it } from 'vitest';
import { shownName } from '../../src/guardrail/text.ts';
import { openStore } from '../../src/store/database.ts';
import { auditRows, guardrailRig, HOUR, planIds, podsNow, podWrites, runningPods, type GuardrailRig } from '../helpers/guardrails.ts';

// the CLI and a sync each take seconds on a busy machine
const SLOW = 300_000;
let rig: GuardrailRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('guardrails apply', () => {
  it('an automatic budget rule stops exactly the pods in scope, none in except, at most the cap; the next sync bills them disk only', { timeout: SLOW }, async () => {
    let running: Awaited<ReturnType<typeof runningPods>> = [];
    rig = await guardrailRig(async (sim) => {
      running = await runningPods(sim);
      const scope = running.slice(0, 5);
      return [{ name: 'brake', trigger: { kind: 'budget', budget: 'gpu-month' }, action: 'stop-pods', approval: 'automatic', maxPerRun: 2, scope: { resource: scope.map((p) => p.id) }, except: [scope[0]!.name] }];
    });
    expect(running.length).toBeGreaterThanOrEqual(5);
    const [excepted, ...rest] = running.slice(0, 5);

    const plan = await rig.run(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout).toMatch(/guardrail brake \(automatic\), account sim: budget gpu-month actual \$[\d,.]+ of \$1\.00/);
    expect(plan.stdout).toMatch(/and 2 more beyond maxPerRun 2/);
    expect(podWrites(rig.sim)).toBe(0); // plan reads only

    const stoppedAt = rig.sim.now().getTime();
    const apply = await rig.run(['apply']);
    expect(apply.code, apply.stderr).toBe(0);
    const expected = rest.slice(0, 2).map((p) => p.id).sort();
    const after = await podsNow(rig.sim);
    const exited = after.filter((p) => p.status === 'EXITED' && running.some((r) => r.id === p.id)).map((p) => p.id).sort();
    expect(exited).toEqual(expected);
    expect(after.find((p) => p.id === excepted!.id)!.status).toBe('RUNNING');
    expect(podWrites(rig.sim)).toBe(2);
    expect(apply.stdout).toMatch(/done: stop pod .* verified by reading the resource back; undo: gpuledger guardrails undo g[0-9a-f]{10}-1/);

    const rows = await auditRows(rig.db);
    expect(rows.map((r) => r.resource_id).sort()).toEqual(expected);
    for (const r of rows) {
      expect(r).toMatchObject({ kind: 'act', rule: 'brake', outcome: 'done', state_before: '{"status":"RUNNING"}', state_target: '{"status":"EXITED"}', state_after: '{"status":"EXITED"}', approved_by: 'automatic (rule brake)' });
      expect(r.request).toBe(`POST /v2/pods/${r.resource_id}/action {"action":"stop"}`);
      expect(r.completed_at).not.toBeNull();
    }

    // a second run finds nothing new to stop within the cap's scope but the next two – and never the excepted pod
    rig.sim.advance(3 * HOUR);
    await rig.sync();
    const store = await openStore({ path: rig.db, readOnly: true });
    try {
      const billed = await store.all<{ pod_id: string; compute: string; disk: string }>(
        `select pod_id, sum(gpu_amount + cpu_amount)::varchar as compute, sum(disk_amount)::varchar as disk from billing_pods
         where bucket_size = 'hour' and start_time >= $1::timestamptz and pod_id in (${expected.map((_, i) => `$${i + 2}`).join(', ')}) group by all order by pod_id`,
        [new Date(Math.ceil(stoppedAt / HOUR) * HOUR).toISOString(), ...expected],
      );
      for (const b of billed) expect(Number(b.compute), b.pod_id).toBe(0);
      const excBilled = await store.one<{ compute: string }>(
        `select sum(gpu_amount + cpu_amount)::varchar as compute from billing_pods where bucket_size = 'hour' and start_time >= $1::timestamptz and pod_id = $2`,
        [new Date(Math.ceil(stoppedAt / HOUR) * HOUR).toISOString(), excepted!.id],
      );
      expect(Number(excBilled!.compute)).toBeGreaterThan(0);
      const stg = await store.all<{ status: string }>(`select status from stg_pods where is_current and pod_id in ($1, $2)`, expected);
      expect(stg.map((s) => s.status)).toEqual(['EXITED', 'EXITED']);
    } finally {
      await store.close();
    }
  });

  it('a manual rule only proposes until approved; an approved stop is undone by undo; an already-stopped pod is a recorded no-op', { timeout: SLOW }, async () => {
    let pods: Awaited<ReturnType<typeof runningPods>> = [];
    rig = await guardrailRig(async (sim) => {
      pods = (await runningPods(sim)).slice(0, 3);
      return [
        { name: 'ask', trigger: { kind: 'budget', budget: 'gpu-month', on: 'actual', thresholdPct: 80 }, action: 'stop-pods', scope: { resource: pods.map((p) => p.id) } },
        { name: 'idle', trigger: { kind: 'waste', finding: 'idle_min_workers' }, action: 'workers-min-to-zero', approval: 'automatic' },
      ];
    });
    const plan = await rig.run(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    const ids = planIds(plan.stdout);
    expect(plan.stdout).toMatch(/guardrail ask \(manual\), account sim: budget gpu-month actual .* ≥ 80 %/);
    expect(plan.stdout).toContain(`approve: gpuledger guardrails apply --approve ${ids.slice(0, 3).join(' ')}`);

    // apply carries out the automatic rule only; the manual proposals wait, with the command that approves them
    const first = await rig.run(['apply']);
    expect(first.code, first.stderr).toBe(0);
    expect(podWrites(rig.sim)).toBe(0);
    expect(first.stdout).toContain(`waiting for approval: gpuledger guardrails apply --approve ${ids.slice(0, 3).join(' ')}`);
    const idle = rig.sim.account.endpoints.find((e) => e.id === rig!.sim.account.planted.idleMinWorkersEndpoint.id)!;
    expect(idle.workersMin).toBe(0);

    // approving one stops that one only
    const approved = await rig.run(['apply', '--approve', ids[0]!]);
    expect(approved.code, approved.stderr).toBe(0);
    const after = await podsNow(rig.sim);
    expect(after.find((p) => p.id === pods[0]!.id)!.status).toBe('EXITED');
    expect(after.find((p) => p.id === pods[1]!.id)!.status).toBe('RUNNING');

    // undo starts it again, as one more recorded, verified write
    const undo = await rig.run(['undo', `${ids[0]}-1`]);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stdout).toMatch(new RegExp(`${ids[0]}-1\\.undo-1 {2}done: undo of ${ids[0]}-1`));
    expect((await podsNow(rig.sim)).find((p) => p.id === pods[0]!.id)!.status).toBe('RUNNING');
    expect((await rig.run(['undo', `${ids[0]}-1`])).stderr).toMatch(/already undone/);

    // a pod stopped by someone else after the plan: its approval is recorded as a no-op, nothing sent
    await fetch(`${rig.sim.url}/v2/pods/${pods[1]!.id}/action`, { method: 'POST', headers: { Authorization: 'Bearer sim-demo-key' }, body: '{"action":"stop"}' });
    const writes = podWrites(rig.sim);
    const noop = await rig.run(['apply', '--approve', ids[1]!]);
    expect(noop.code, noop.stderr).toBe(0);
    expect(noop.stdout).toMatch(/no-op: .*already in the target state; nothing was sent/);
    expect(podWrites(rig.sim)).toBe(writes);

    // an id nobody proposed is refused before anything is sent
    const unknown = await rig.run(['apply', '--approve', 'g0000000000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/not proposed now: g0000000000/);

    const rows = await auditRows(rig.db);
    expect(rows.map((r) => [r.kind, r.rule, r.outcome])).toEqual([
      ['act', 'idle', 'done'],
      ['act', 'ask', 'done'],
      ['undo', 'ask', 'done'],
      ['act', 'ask', 'no-op'],
    ]);
    expect(rows[0]).toMatchObject({ state_target: `{"workersMin":0,"workersMax":${idle.workersMax}}`, request: `PATCH /v2/serverless/${idle.id} {"workersMin":0}` });
    expect(rows[1]!.approved_by).toMatch(/^manual: .+ with --approve$/);
    expect(rows[2]).toMatchObject({ undoes: `${ids[0]}-1`, state_target: '{"status":"RUNNING"}', request: `POST /v2/pods/${pods[0]!.id}/action {"action":"start"}` });
    for (const r of rows) expect(r.completed_at).not.toBeNull();
  });

  it('hostile names and patterns are inert: escaped in every line, matched as text, never as markup, formula or regular expression', { timeout: SLOW }, async () => {
    const hostilePatterns = ['=HYPERLINK(*', '<script>*', `${'*'.repeat(200)}zzz`, '.*', '[a-z]*'];
    rig = await guardrailRig(async () => [
      { name: 'all-pods', trigger: { kind: 'budget', budget: 'gpu-month' }, action: 'stop-pods', maxPerRun: 100, except: hostilePatterns },
    ], { hostileNames: true });
    const running = await runningPods(rig.sim);
    const excluded = running.filter((p) => p.name.startsWith('=HYPERLINK(') || p.name.startsWith('<script>'));
    expect(excluded.length).toBeGreaterThan(0);
    const plan = await rig.run(['plan']);
    expect(plan.code, plan.stderr).toBe(0);
    for (const line of plan.stdout.split('\n')) {
      expect(line).not.toMatch(/[\r\u202e\u0000-\u0008]/);
      expect(line.length).toBeLessThan(400 + 200 * 10);
    }
    const ids = planIds(plan.stdout);
    expect(ids).toHaveLength(running.length - excluded.length);
    for (const p of excluded) expect(plan.stdout).not.toContain(p.id);
    // a pod whose name would not show as it is (escaped or cut), else any: its line shows the shown name, and the
    // audit keeps the name as it came
    const crlf = running.find((p) => !excluded.includes(p) && shownName(p.name) !== p.name) ?? running.find((p) => !excluded.includes(p))!;
    expect(plan.stdout).toContain(`${shownName(crlf.name)} (${crlf.id})`);
    const line = plan.stdout.split('\n').find((l) => l.includes(crlf.id))!;
    const id = /^ {2}(g[0-9a-f]{10}) /.exec(line)![1]!;
    const apply = await rig.run(['apply', '--approve', id]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout.split('\n').filter((l) => l.includes(crlf.id))).toHaveLength(1);
    const rows = await auditRows(rig.db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ resource_id: crlf.id, resource_name: crlf.name, outcome: 'done' });
  });
});
