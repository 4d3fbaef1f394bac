// The saveEndpoint mutation with an id (platform-api-overview.md "GraphQL endpoint management": Modify resends
// gpuIds, name and templateId with the changed field). The simulator carries out only a change of workersMin and
// workersMax – the same change as PATCH /v2/serverless/{id} (http/write-routes.ts) –; creating an endpoint, or
// changing anything else, is refused with an error, as a key without the write permission is.
import { GraphQLError } from 'graphql';
import type { SyntheticAccount } from '../account/types.ts';
import type { LedgerInternal } from '../ledger/types.ts';
import { updateWorkers } from '../http/write-routes.ts';
import { endpointSource } from './endpoint-source.ts';

export interface GraphqlWrites {
  allowed: boolean;
  ledger: LedgerInternal;
}

const RESENT = ['name', 'gpuIds', 'templateId'] as const;

export function saveEndpoint(input: Record<string, unknown>, account: SyntheticAccount, now: number, writes: GraphqlWrites | undefined) {
  if (!writes?.allowed) throw new GraphQLError('this API key does not have the permission serverless endpoints: write', { extensions: { code: 'FORBIDDEN' } });
  if (typeof input.id !== 'string') throw new GraphQLError('the simulator does not create endpoints: give the id of an existing one');
  const e = account.endpoints.find((x) => x.id === input.id && x.createdAt.getTime() <= now && (x.deletedAt === null || x.deletedAt.getTime() > now));
  if (!e) throw new GraphQLError(`no endpoint ${input.id}`);
  const current = endpointSource(e);
  for (const k of RESENT) {
    if (input[k] !== current[k]) throw new GraphQLError(`${k} differs from the endpoint's; the simulator changes only workersMin and workersMax`);
  }
  const others = Object.keys(input).filter((k) => input[k] != null && !['id', ...RESENT, 'workersMin', 'workersMax'].includes(k) && input[k] !== current[k]);
  if (others.length) throw new GraphQLError(`the simulator changes only workersMin and workersMax, not ${others.join(', ')}`);
  const body: Record<string, unknown> = {};
  if (input.workersMin != null) body.workersMin = input.workersMin;
  if (input.workersMax != null) body.workersMax = input.workersMax;
  const reply = updateWorkers({ account, ledger: writes.ledger, now }, e.id, body);
  if (reply.status !== 200) {
    const problem = JSON.parse(Buffer.concat(reply.body).toString('utf8')) as { detail: string };
    throw new GraphQLError(problem.detail);
  }
  return endpointSource(e);
}
