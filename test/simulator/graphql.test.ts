// POST /graphql (billing-api-v2.md §4): selection sets, only the selected fields, errors as graphql-js words them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.ts';
import { graphql, NOW } from '../helpers/simulator-http.ts';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ now: NOW });
});
afterAll(() => sim.close());

const FULL = `
  # the query gpuledger sends
  query Endpoints {
    myself {
      endpoints { id name gpuIds idleTimeout locations networkVolumeId scalerType scalerValue templateId
                  workersMax workersMin type pods { desiredStatus } }
      serverlessDiscount { discountFactor type expirationDate }
    }
  }`;

describe('GraphQL', () => {
  it('answers the documented query with exactly the selected fields', async () => {
    const { status, body } = await graphql(sim, FULL);
    expect(status).toBe(200);
    const { endpoints, serverlessDiscount } = body.data.myself;
    expect(Object.keys(body.data.myself)).toEqual(['endpoints', 'serverlessDiscount']);
    expect(endpoints.length).toBe(sim.account.endpoints.filter((e) => e.createdAt <= sim.now() && (!e.deletedAt || e.deletedAt > sim.now())).length);
    expect(Object.keys(endpoints[0])).toEqual([
      'id', 'name', 'gpuIds', 'idleTimeout', 'locations', 'networkVolumeId', 'scalerType', 'scalerValue', 'templateId',
      'workersMax', 'workersMin', 'type', 'pods',
    ]);
    const idle = endpoints.find((e: { id: string }) => e.id === sim.account.planted.idleMinWorkersEndpoint.id);
    expect(idle).toMatchObject({ gpuIds: 'AMPERE_16', workersMin: 1, type: 'QB' });
    expect(idle.templateId).toBe(sim.account.endpoints.find((e) => e.id === idle.id)!.templateId);
    expect(serverlessDiscount).toMatchObject({ type: 'SERVERLESS' });
    expect(typeof serverlessDiscount.discountFactor).toBe('number');
  });

  it('accepts an anonymous operation, commas, aliases and the Bearer header', async () => {
    const { status, body } = await graphql(sim, '{ myself { eps: endpoints { id, workersMin } } }', 'bearer');
    expect(status).toBe(200);
    expect(Object.keys(body.data.myself.eps[0])).toEqual(['id', 'workersMin']);
  });

  it('answers an unknown field with the graphql-js message and HTTP 400', async () => {
    const { status, body } = await graphql(sim, '{ myself { endpoints { id bogus } } }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toBe('Cannot query field "bogus" on type "Endpoint". Did you mean "pods"?');
    expect(body.data).toBeUndefined();
  });

  it('answers a syntax error with HTTP 400', async () => {
    const { status, body } = await graphql(sim, '{ myself { endpoints { id }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(/^Syntax Error: Expected Name, found <EOF>\./);
  });

  it('requires a subselection on object fields', async () => {
    const { status, body } = await graphql(sim, '{ myself { endpoints } }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain('must have a selection of subfields');
  });

  it('answers fragments and the named operation of several', async () => {
    const query = `fragment E on Endpoint { id workersMin }
      query A { myself { id } }
      query B { myself { endpoints { ...E } } }`;
    const res = await fetch(`${sim.url}/graphql?api_key=sim-demo-key`, { method: 'POST', body: JSON.stringify({ query, operationName: 'B' }) });
    const body = (await res.json()) as { data: { myself: { endpoints: object[] } } };
    expect(res.status).toBe(200);
    expect(Object.keys(body.data.myself.endpoints[0]!)).toEqual(['id', 'workersMin']);
    const unnamed = await graphql(sim, query);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.errors[0].message).toBe('Must provide operation name if query contains multiple operations.');
  });

  it('refuses any mutation but saveEndpoint (test/simulator/writes.test.ts) with HTTP 400', async () => {
    const { status, body } = await graphql(sim, 'mutation { myself { id } }');
    expect(status).toBe(400);
    expect(body.errors[0].message).toBe('Cannot query field "myself" on type "Mutation".');
  });

  it('refuses a missing or invalid key with 401', async () => {
    expect((await graphql(sim, FULL, 'none')).status).toBe(401);
  });

  it('answers 503 while graphql=down', async () => {
    sim.setFaults('graphql=down');
    try {
      const res = await fetch(`${sim.url}/graphql?api_key=sim-demo-key`, { method: 'POST', body: JSON.stringify({ query: FULL }) });
      expect(res.status).toBe(503);
      await res.arrayBuffer();
    } finally {
      sim.setFaults(undefined);
    }
    expect((await graphql(sim, FULL)).status).toBe(200);
  });

  it('carries no RateLimit headers', async () => {
    const { headers } = await graphql(sim, FULL);
    expect(headers.get('ratelimit')).toBeNull();
  });
});
