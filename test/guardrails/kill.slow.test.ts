// SIGKILL at every step of `guardrails apply` (issue 40 "Done when"): killed after the intent is committed and
// before the write, after the write before its outcome is recorded, and after the outcome is recorded – then run
// again. Each pod is acted on exactly once (one write each, counted by the simulator), and every audit row ends
// complete: an interrupted row is settled by reading the pod's state, never by sending the write again.
// A lost answer is resolved by reading back (a 429 is waited out: write-client.test.ts); a read-only key gets one clear line and changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireGuardrailLock } from '../../src/guardrail/run-lock.ts';
import { auditRows, guardrailRig, planIds, podsNow, podWrites, runningPods, type GuardrailRig } from '../helpers/guardrails.ts';

const SLOW = 600_000;
let rig: GuardrailRig;
let pods: Awaited<ReturnType<typeof runningPods>> = [];
let ids: string[] = [];
beforeAll(async () => {
  rig = await guardrailRig(async (sim) => {
    pods = (await runningPods(sim)).slice(0, 5);
    return [{ name: 'ask', trigger: { kind: 'budget', budget: 'gpu-month' }, action: 'stop-pods', scope: { resource: pods.map((p) => p.id) } }];
  });
  const plan = await rig.run(['plan']);
  ids = planIds(plan.stdout);
}, SLOW);
afterAll(() => rig?.close());

const statusOf = async (i: number) => (await podsNow(rig.sim)).find((p) => p.id === pods[i]!.id)!.status;
const idOf = (i: number): string => ids[i]!;

describe('guardrails apply killed at every step', () => {
  it('proposes the five pods, costliest first', () => {
    expect(ids).toHaveLength(5);
  });

  it.each([
    ['before-write', 0],
    ['after-write', 1],
    ['after-record', 2],
  ] as const)('killed %s, then run again: the pod is stopped by exactly one write and its rows are complete', { timeout: SLOW }, async (step, i) => {
    const writes = podWrites(rig.sim);
    const killed = await rig.runEnv(['apply', '--approve', idOf(i)], { GPULEDGER_TEST_KILL_AT: step });
    expect(killed.signal, killed.stderr).toBe('SIGKILL');
    expect(podWrites(rig.sim) - writes).toBe(step === 'before-write' ? 0 : 1);
    // the rerun: settles what was left open by reading; the manual proposal is approved again where it still is one
    const again = step === 'before-write' ? await rig.run(['apply', '--approve', idOf(i)]) : await rig.run(['apply']);
    expect(again.code, again.stderr).toBe(0);
    expect(await statusOf(i)).toBe('EXITED');
    expect(podWrites(rig.sim) - writes).toBe(1);
    const rows = (await auditRows(rig.db)).filter((r) => r.resource_id === pods[i]!.id);
    for (const r of rows) {
      expect(r.outcome, JSON.stringify(r)).not.toBeNull();
      expect(r.completed_at).not.toBeNull();
    }
    if (step === 'before-write') {
      // the killed run's intent is settled as unchanged (nothing was sent), and the rerun's own row did the stop
      expect(rows.map((r) => r.outcome)).toEqual(['unchanged', 'done']);
      expect(again.stdout).toMatch(/settled .*: unchanged – settled after an interrupted run by reading the resource back; the write was not sent again/);
    } else if (step === 'after-write') {
      expect(rows.map((r) => r.outcome)).toEqual(['done']);
      expect(rows[0]!.outcome_detail).toMatch(/settled after an interrupted run by reading the resource back; the write was not sent again/);
    } else {
      expect(rows.map((r) => r.outcome)).toEqual(['done']);
      expect(rows[0]!.outcome_detail).toBe('verified by reading the resource back');
    }
  });

  it('a lost answer is resolved by reading the pod back, never by sending again', { timeout: SLOW }, async () => {
    const writes = podWrites(rig.sim);
    rig.sim.setFaults('lost=1');
    const lost = await rig.run(['apply', '--approve', idOf(3)]);
    rig.sim.setFaults(undefined);
    expect(lost.code, lost.stderr).toBe(0);
    expect(lost.stdout).toMatch(/done: .*the answer was lost; verified by reading the resource back/);
    expect(podWrites(rig.sim) - writes).toBe(1);
    expect(await statusOf(3)).toBe('EXITED');
  });

  it('a read-only key gets one line naming the missing permission, and nothing changes', { timeout: SLOW }, async () => {
    const writes = podWrites(rig.sim);
    const refused = await rig.run(['apply', '--approve', idOf(4)], 'sim-readonly-key');
    expect(refused.code).toBe(3);
    const lines = refused.stdout.split('\n').filter((l) => /403/.test(l));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/guardrail ask, account sim: the API key in GPULEDGER_TEST_KEY may not stop pods \(403\); give it the permission pods: write/);
    expect(refused.stdout + refused.stderr).not.toContain('sim-readonly-key');
    expect(podWrites(rig.sim) - writes).toBe(1);
    expect(await statusOf(4)).toBe('RUNNING');
    const row = (await auditRows(rig.db)).filter((r) => r.resource_id === pods[4]!.id);
    expect(row.map((r) => r.outcome)).toEqual(['forbidden']);
    expect(row[0]!.state_after).toBe('{"status":"RUNNING"}');
  });

  it('runs one guardrail run at a time: another holding the lock is named, and nothing is sent', { timeout: SLOW }, async () => {
    const lock = await acquireGuardrailLock(rig.db, { command: 'a test holding the lock' });
    try {
      const writes = podWrites(rig.sim);
      const refused = await rig.run(['apply', '--approve', idOf(4)]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/a test holding the lock/);
      expect(podWrites(rig.sim)).toBe(writes);
    } finally {
      lock.release();
    }
  });
});
