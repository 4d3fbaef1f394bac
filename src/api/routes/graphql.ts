// POST /graphql myself.endpoints (billing-api-v2.md §4): deprecated, but the only source of the endpoint → template
// link and of serverlessDiscount. Its failures are ApiGraphqlError so that callers can degrade (warn, keep going).
import { ApiGraphqlError } from '../errors.ts';
import type { ApiRequester } from '../request.ts';
import { describeIssue, GRAPHQL_QUERY, graphqlResponseSchema } from '../schemas.ts';

export interface GraphqlEndpoints {
  endpoints: Record<string, unknown>[];
  serverlessDiscount: Record<string, unknown> | null;
}

export async function fetchGraphqlEndpoints(requester: ApiRequester, signal?: AbortSignal): Promise<GraphqlEndpoints> {
  const what = 'POST /graphql (myself.endpoints)';
  const { json } = await requester.request({ what, method: 'POST', path: '/graphql', body: JSON.stringify({ query: GRAPHQL_QUERY }), signal });
  const parsed = graphqlResponseSchema.safeParse(json);
  if (!parsed.success) throw new ApiGraphqlError(`${what}: ${describeIssue(parsed.error)}`);
  if (parsed.data.errors?.length) throw new ApiGraphqlError(`${what}: ${parsed.data.errors.map((e) => e.message).join('; ')}`);
  if (!parsed.data.data) throw new ApiGraphqlError(`${what}: no data in the answer`);
  const myself = parsed.data.data.myself as unknown as GraphqlEndpoints;
  return { endpoints: myself.endpoints, serverlessDiscount: myself.serverlessDiscount };
}
