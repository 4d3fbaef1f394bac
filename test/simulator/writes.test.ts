// The write routes (platform-api-overview.md): pod stop/start through POST /v2/pods/{id}/action, worker counts
// through PATCH /v2/serverless/{id} and GraphQL saveEndpoint – each changing the account from the simulated now,
// as inventory and billing then show; a read-only key gets 403; write faults: a lost answer and a 429.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { get, KEY, NOW, UNLIMITED } from '../helpers/simulator-http.ts';

const HOUR = 3_600_000;
let sim: Simulator;
beforeEach(async () => {
  sim = await startSimulator({ now: NOW, quotas: UNLIMITED });
});
afterEach(() => sim.close());

async function send(method: 'POST' | 'PATCH', path: string, body: unknown, key = KEY): Promise<{ status: number; body: any }> {
  const res = await fetch(sim.url + path, { method, headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

type Pod = { id: string; status: string; cost: number; cluster?: unknown; mounts: { persistent?: { size: number } } };
const pods = async (): Promise<Pod[]> => (await get(sim, '/v2/pods')).body.pods;
/** A running pod with a volume (so its stopped hours still bill the disk), not in a cluster. */
const runningPod = async () => (await pods()).find((p) => p.status === 'RUNNING' && !p.cluster && p.mounts.persistent)!;
const podHour = (id: string, start: number) =>
  sim.ledger.sum({ source: 'pods', resourceId: id, start: new Date(start), end: new Date(start + HOUR) });

describe('pod actions', () => {
  it('stop leaves the pod EXITED from that moment, billing only its volume; start bills compute again', async () => {
    const pod = await runningPod();
    const stoppedAt = sim.now().getTime();
    const stop = await send('POST', `/v2/pods/${pod.id}/action`, { action: 'stop' });
    expect(stop.status).toBe(200);
    expect(stop.body.status).toBe('EXITED');
    sim.advance(3 * HOUR);
    const after = (await pods()).find((p) => p.id === pod.id)!;
    expect(after).toMatchObject({ status: 'EXITED', cost: 0 });
    // a whole hour after the stop: no compute, only the volume at the stopped rate (billing-api-v2.md §6)
    const hour = podHour(pod.id, Math.ceil(stoppedAt / HOUR) * HOUR);
    expect(hour.gpuAmount + hour.cpuAmount).toBe(0n);
    expect(hour.diskAmount).toBeGreaterThan(0n);
    // the hour before the stop is billed as it was
    const before = podHour(pod.id, Math.floor(stoppedAt / HOUR) * HOUR - HOUR);
    expect(before.gpuAmount + before.cpuAmount).toBeGreaterThan(0n);

    const startedAt = sim.now().getTime();
    expect((await send('POST', `/v2/pods/${pod.id}/action`, { action: 'start' })).body.status).toBe('RUNNING');
    sim.advance(3 * HOUR);
    expect((await pods()).find((p) => p.id === pod.id)!.status).toBe('RUNNING');
    const again = podHour(pod.id, Math.ceil(startedAt / HOUR) * HOUR);
    expect(again.gpuAmount + again.cpuAmount).toBeGreaterThan(0n);
  });

  it('refuses terminate, an unknown action and an unknown pod; never deletes anything', async () => {
    const pod = await runningPod();
    expect((await send('POST', `/v2/pods/${pod.id}/action`, { action: 'terminate' })).status).toBe(400);
    expect((await send('POST', `/v2/pods/${pod.id}/action`, { action: 'reset' })).status).toBe(422);
    expect((await send('POST', '/v2/pods/nope/action', { action: 'stop' })).status).toBe(404);
    expect((await pods()).find((p) => p.id === pod.id)!.status).toBe('RUNNING');
  });

  it('gives a read-only key 403 naming the permission, and changes nothing', async () => {
    const pod = await runningPod();
    const refused = await send('POST', `/v2/pods/${pod.id}/action`, { action: 'stop' }, 'sim-readonly-key');
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toMatch(/pods: write/);
    expect((await get(sim, '/v2/pods', 'sim-readonly-key')).status).toBe(200);
    expect((await pods()).find((p) => p.id === pod.id)!.status).toBe('RUNNING');
  });

  it('lost=1 carries out the stop and resets the connection before the answer; write429=1 refuses it untouched', async () => {
    const [a, b] = (await pods()).filter((p) => p.status === 'RUNNING' && !p.cluster);
    sim.setFaults('write429=1');
    const limited = await send('POST', `/v2/pods/${a!.id}/action`, { action: 'stop' });
    expect(limited.status).toBe(429);
    sim.setFaults('lost=1');
    await expect(send('POST', `/v2/pods/${b!.id}/action`, { action: 'stop' })).rejects.toThrow();
    sim.setFaults(undefined);
    const now = await pods();
    expect(now.find((p) => p.id === a!.id)!.status).toBe('RUNNING');
    expect(now.find((p) => p.id === b!.id)!.status).toBe('EXITED');
  });
});

describe('endpoint worker counts', () => {
  const idle = () => sim.account.planted.idleMinWorkersEndpoint;
  const endpointHour = (start: number) => sim.ledger.sum({ source: 'serverless', resourceId: idle().id, start: new Date(start), end: new Date(start + HOUR) });

  it('PATCH workersMax 0 bills nothing from that moment; the inventory shows the new counts', async () => {
    const at = sim.now().getTime();
    const patched = await send('PATCH', `/v2/serverless/${idle().id}`, { workersMin: 0, workersMax: 0 });
    expect(patched.status).toBe(200);
    expect(patched.body.workers).toMatchObject({ min: 0, max: 0 });
    sim.advance(3 * HOUR);
    expect(endpointHour(Math.ceil(at / HOUR) * HOUR).totalAmount).toBe(0n);
    expect(endpointHour(Math.floor(at / HOUR) * HOUR - HOUR).totalAmount).toBeGreaterThan(0n);
    const listed = (await get(sim, '/v2/serverless')).body.endpoints.find((e: { id: string }) => e.id === idle().id);
    expect(listed.workers).toMatchObject({ min: 0, max: 0 });
  });

  it('refuses any other field (422) and min above max (400)', async () => {
    expect((await send('PATCH', `/v2/serverless/${idle().id}`, { name: 'x' })).status).toBe(422);
    expect((await send('PATCH', `/v2/serverless/${idle().id}`, { workersMin: 5, workersMax: 1 })).status).toBe(400);
  });

  it('saveEndpoint with the id, resending gpuIds, name and templateId, changes workersMin', async () => {
    const list = await fetch(`${sim.url}/graphql?api_key=${KEY}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: '{ myself { endpoints { id name gpuIds templateId workersMin workersMax } } }' }),
    }).then((r) => r.json() as Promise<any>);
    const e = list.data.myself.endpoints.find((x: { id: string }) => x.id === idle().id);
    expect(e.workersMin).toBeGreaterThan(0);
    const mutation = `mutation { saveEndpoint(input: {id: ${JSON.stringify(e.id)}, name: ${JSON.stringify(e.name)}, gpuIds: ${JSON.stringify(e.gpuIds)}, templateId: ${JSON.stringify(e.templateId)}, workersMin: 0, workersMax: ${e.workersMax}}) { id workersMin workersMax } }`;
    const post = (key: string) =>
      fetch(`${sim.url}/graphql?api_key=${key}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: mutation }) }).then((r) => r.json() as Promise<any>);
    const refused = await post('sim-readonly-key');
    expect(refused.errors[0].message).toMatch(/permission/);
    const saved = await post(KEY);
    expect(saved.data.saveEndpoint).toMatchObject({ id: e.id, workersMin: 0, workersMax: e.workersMax });
    expect(sim.account.endpoints.find((x) => x.id === e.id)!.workersMin).toBe(0);
  });
});
