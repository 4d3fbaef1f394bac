// The slice of the platform's GraphQL schema gpuledger reads (billing-api-v2.md §4) and the balance fields
// (balance-and-queue.md §1), in SDL. A server may be told not to know some User or top-up fields (`hidden`), to
// answer as an older or newer schema would: the same SDL without them, so graphql-js refuses them in its own words.
import { buildASTSchema, parse, visit, type GraphQLSchema } from 'graphql';

const SDL = parse(`
  type Query { myself: User! }

  # modify only (platform-api-overview.md "GraphQL endpoint management"): with id, resending gpuIds, name and
  # templateId together with the changed worker counts
  type Mutation { saveEndpoint(input: EndpointInput!): Endpoint }

  input EndpointInput {
    id: String
    name: String!
    gpuIds: String!
    templateId: String!
    type: String
    idleTimeout: Int
    locations: String
    flashBootType: String
    scalerType: String
    scalerValue: Int
    workersMin: Int
    workersMax: Int
    networkVolumeId: String
  }

  type User {
    id: String!
    email: String
    endpoints: [Endpoint]
    serverlessDiscount: ServerlessDiscount
    clientBalance: Float
    currentSpendPerHr: Float
    spendLimit: Float
    minBalance: Float
    underBalance: Boolean
    stripeReloadHistory: [StripeReload]
  }

  type StripeReload { amount: Float, transactionCompletedAt: String, type: String, medium: String }

  type Endpoint {
    id: String!
    name: String!
    gpuIds: String
    gpuCount: Int
    idleTimeout: Int
    locations: String
    networkVolumeId: String
    scalerType: String
    scalerValue: Int
    templateId: String
    type: String
    flashBootType: String
    workersMax: Int
    workersMin: Int
    pods: [EndpointPod]
  }

  type EndpointPod { id: String, desiredStatus: String }

  type ServerlessDiscount { discountFactor: Float, type: String, expirationDate: String }
`);

/** The types whose fields a server may not know. */
const HIDEABLE = new Set(['User', 'StripeReload']);
const schemas = new Map<string, GraphQLSchema>();

/** The schema without the `hidden` User and top-up fields, built once per set of hidden fields. */
export function simulatorSchema(hidden: ReadonlySet<string>): GraphQLSchema {
  const key = [...hidden].sort().join(',');
  let schema = schemas.get(key);
  if (!schema) {
    const document = visit(SDL, {
      ObjectTypeDefinition: (node) => (HIDEABLE.has(node.name.value) ? { ...node, fields: node.fields?.filter((f) => !hidden.has(f.name.value)) } : undefined),
    });
    schema = buildASTSchema(document);
    schemas.set(key, schema);
  }
  return schema;
}
