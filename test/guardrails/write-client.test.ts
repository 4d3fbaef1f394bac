// The client's writes against the simulator over HTTP (src/api/routes/writes.ts): a 429 on a write is waited out
// and sent again – the platform refused it, nothing happened –, while a write whose answer is lost is never sent
// again but reported as unknown, for the caller to read back.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiClient, ApiWriteUnknownError, podActionRequest } from '../../src/api/index.ts';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { KEY, NOW, UNLIMITED } from '../helpers/simulator-http.ts';

let sim: Simulator;
let client: ApiClient;
beforeEach(async () => {
  sim = await startSimulator({ now: NOW, quotas: UNLIMITED });
  client = new ApiClient({ baseUrl: sim.url, apiKey: KEY, apiKeyEnv: 'GPULEDGER_TEST_KEY', initialRatePerSecond: 1000 });
});
afterEach(async () => {
  await client.close();
  await sim.close();
});

const running = async () =>
  ((await client.inventory('pods')) as { id: string; status: string; cluster?: unknown }[]).filter((p) => p.status === 'RUNNING' && !p.cluster);
const writes = () => sim.stats().byRoute['/v2/pods/{id}/action'] ?? 0;

describe('writes', () => {
  it('waits out a 429 (Retry-After) and sends again until the platform takes it', async () => {
    const pods = (await running()).slice(0, 4);
    sim.setFaults('write429=0.5');
    for (const p of pods) await client.write(podActionRequest(p.id, 'stop'));
    sim.setFaults(undefined);
    expect(sim.stats().byStatus[429]).toBeGreaterThan(0);
    expect(writes()).toBe(pods.length + sim.stats().byStatus[429]!);
    const after = (await client.inventory('pods')) as { id: string; status: string }[];
    for (const p of pods) expect(after.find((x) => x.id === p.id)!.status).toBe('EXITED');
  }, 60_000);

  it('never sends a write again whose answer was lost', async () => {
    const [pod] = await running();
    sim.setFaults('lost=1');
    await expect(client.write(podActionRequest(pod!.id, 'stop'))).rejects.toBeInstanceOf(ApiWriteUnknownError);
    sim.setFaults(undefined);
    expect(writes()).toBe(1);
  });
});
