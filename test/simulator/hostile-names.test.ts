// `hostileNames: true` (issue 37 §6): every name the contract has – pods, endpoints over REST and GraphQL, templates,
// network volumes, clusters and their member pods, GPU display names – is a hostile one, while ids, bills and every
// other field are the plain simulator's; the same options give byte-identical answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileName, LONG_NAME_CHARS } from '../../src/simulator/account/hostile-names.ts';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { get, graphql, NOW, UNLIMITED } from '../helpers/simulator-http.ts';

const ROUTES = [
  ['/v2/pods?includeClusterPods=true', 'pods'],
  ['/v2/serverless', 'endpoints'],
  ['/v2/templates', 'templates'],
  ['/v2/network-volumes', 'networkVolumes'],
  ['/v2/catalog/gpus', 'gpus'],
  ['/v2/clusters', 'clusters'],
] as const;

let plain: Simulator;
let hostile: Simulator;
beforeAll(async () => {
  [plain, hostile] = await Promise.all([startSimulator({ now: NOW, quotas: UNLIMITED }), startSimulator({ now: NOW, quotas: UNLIMITED, hostileNames: true })]);
});
afterAll(async () => {
  await Promise.all([plain.close(), hostile.close()]);
});

// what no name of the plain simulator holds: markup, a formula start, a control or bidi character, a cell's overflow
const isHostile = (name: string) => /[<>"]|^[=+\-@\t\r]|[\r\n\u202E]/.test(name) || name.length >= LONG_NAME_CHARS;

describe('the simulator with hostile names', () => {
  it.each(ROUTES)('%s serves a hostile name for every object, every other field as the plain simulator', async (route, key) => {
    const [a, b] = await Promise.all([get(plain, route), get(hostile, route)]);
    expect(b.status).toBe(200);
    const plainItems = a.body[key] as Record<string, unknown>[];
    const hostileItems = b.body[key] as Record<string, unknown>[];
    expect(hostileItems.map((x) => x.id)).toEqual(plainItems.map((x) => x.id));
    hostileItems.forEach((item, i) => {
      expect(isHostile(item.name as string), `${route} ${item.id}: ${JSON.stringify(item.name).slice(0, 40)}`).toBe(true);
      const strip = (x: Record<string, unknown>) => ({ ...x, name: undefined, pods: undefined });
      expect(strip(item)).toEqual(strip(plainItems[i]!));
    });
  });

  it('names each cluster member as /v2/pods does, and every endpoint in GraphQL as over REST', async () => {
    const pods = new Map(((await get(hostile, '/v2/pods?includeClusterPods=true')).body.pods as { id: string; name: string }[]).map((p) => [p.id, p.name]));
    for (const c of (await get(hostile, '/v2/clusters')).body.clusters) for (const m of c.pods) expect(m.name).toBe(pods.get(m.id));
    const rest = new Map(((await get(hostile, '/v2/serverless')).body.endpoints as { id: string; name: string }[]).map((e) => [e.id, e.name]));
    const gql = (await graphql(hostile, '{ myself { endpoints { id name } } }')).body.data.myself.endpoints as { id: string; name: string }[];
    expect(gql.length).toBe(rest.size);
    for (const e of gql) expect(e.name).toBe(rest.get(e.id));
  });

  it('serves each kind of hostile name somewhere, the planted facts named by theirs, and bills as the plain account', async () => {
    const all = [...hostile.account.templates.map((t) => t.name), ...hostile.account.pods.flatMap((p) => p.names.map((n) => n.name)), ...hostile.account.gpus.map((g) => g.name)];
    for (const want of ['=1+1', '+1', '-1', '@SUM(1+1)', '\t=1+1', '\r=1+1', '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '=HYPERLINK("http://x",']) {
      expect(all.some((n) => n.startsWith(want) || n === want), want).toBe(true);
    }
    expect(all.some((n) => n.includes('\u202E'))).toBe(true);
    expect(all.some((n) => n.includes('\r\n'))).toBe(true);
    expect(all.some((n) => n.length === LONG_NAME_CHARS)).toBe(true);
    const { planted } = hostile.account;
    expect(planted.idleMinWorkersEndpoint.name).toBe(hostile.account.endpoints.find((e) => e.id === planted.idleMinWorkersEndpoint.id)!.name);
    expect(planted.idleMinWorkersEndpoint.name).toBe('embeddings-warm\u202Egpj.exe');
    expect(planted.unattachedVolume.name).toBe('old-datasets\r\nfake-row  0.00');
    expect(planted.renamedPod.oldName).not.toBe(planted.renamedPod.newName);
    const window = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-11-20T00:00:00Z') };
    for (const source of ['pods', 'serverless', 'network-volumes', 'clusters'] as const) {
      expect(hostile.ledger.sum({ source, ...window }).totalAmount).toBe(plain.ledger.sum({ source, ...window }).totalAmount);
    }
  });

  it('is deterministic: the same options give byte-identical names, each distinct within its kind', async () => {
    const again = await startSimulator({ now: NOW, quotas: UNLIMITED, hostileNames: true });
    try {
      for (const [route, key] of ROUTES) {
        const [a, b] = await Promise.all([get(hostile, route), get(again, route)]);
        expect(b.text).toBe(a.text);
        const names = (a.body[key] as { name: string }[]).map((x) => x.name);
        expect(new Set(names).size, route).toBe(names.length);
      }
    } finally {
      await again.close();
    }
    expect(hostileName(1, 'x')).toBe('x\u202Egpj.exe');
    expect(hostileName(4, 'x')).toBe('=1+1');
    expect(hostileName(16, 'x')).toBe('=1+2');
  });
});
