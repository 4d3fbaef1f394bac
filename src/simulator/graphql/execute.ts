// POST /graphql answered by graphql-js, the reference implementation: parsed, validated against schema.ts, then
// resolved from the account as it is at now (endpoints alive at now). A syntax or validation error, or a request
// nothing could be executed for (an unknown operation name), is HTTP 400 with {errors}. The one mutation,
// saveEndpoint with an id, changes workersMin/workersMax like PATCH /v2/serverless/{id} (save-endpoint.ts).
import { executeSync, GraphQLError, parse, validate, type DocumentNode, type FormattedExecutionResult } from 'graphql';
import type { SyntheticAccount } from '../account/types.ts';
import { balanceFields, type SimBalance } from '../ledger/balance.ts';
import { simulatorSchema } from './schema.ts';
import { saveEndpoint, type GraphqlWrites } from './save-endpoint.ts';
import { endpointSource } from './endpoint-source.ts';

type Source = Record<string, unknown>;

const BALANCE_FIELDS = ['clientBalance', 'currentSpendPerHr', 'spendLimit', 'minBalance', 'underBalance', 'stripeReloadHistory'] as const;

/** `myself` at now; graphql-js calls a function-valued field, so what costs work is computed only when asked for. */
function userSource(account: SyntheticAccount, now: number, balance: SimBalance | undefined): Source {
  let fields: Record<string, unknown> | undefined;
  // the balance costs a ledger sum
  const balanceField = (name: string) => () => balance && (fields ??= balanceFields(balance.at(now)))[name];
  return {
    id: `user_${account.seed}`,
    email: 'ml-platform@acme.example',
    endpoints: () =>
      account.endpoints.filter((e) => e.createdAt.getTime() <= now && (e.deletedAt === null || e.deletedAt.getTime() > now)).map(endpointSource),
    serverlessDiscount: account.serverlessDiscount,
    ...Object.fromEntries(BALANCE_FIELDS.map((name) => [name, balanceField(name)])),
  };
}

export type ExecutionResult = { status: 200 | 400; body: FormattedExecutionResult };

export interface ExecuteOptions {
  balance?: SimBalance;
  /** User (or top-up) fields this server does not know (answered like any unknown field). */
  hiddenFields?: ReadonlySet<string>;
  /** What saveEndpoint may change; absent: every mutation is refused. */
  writes?: GraphqlWrites;
}

export interface GraphQLRequest {
  query: string;
  operationName: string | null;
  variables?: Record<string, unknown>;
}

export function executeQuery(
  { query, operationName, variables }: GraphQLRequest,
  account: SyntheticAccount,
  now: number,
  options: ExecuteOptions = {},
): ExecutionResult {
  const refused = (errors: readonly GraphQLError[]): ExecutionResult => ({ status: 400, body: { errors: errors.map((e) => e.toJSON()) } });
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (e) {
    if (e instanceof GraphQLError) return refused([e]);
    throw e;
  }
  const schema = simulatorSchema(options.hiddenFields ?? new Set());
  const invalid = validate(schema, document);
  if (invalid.length) return refused(invalid);
  const result = executeSync({ schema, document, operationName, variableValues: variables, rootValue: {
      myself: userSource(account, now, options.balance),
      saveEndpoint: (args: { input: Record<string, unknown> }) => saveEndpoint(args.input, account, now, options.writes),
    },
  });
  if (result.data == null) return refused(result.errors ?? []);
  return { status: 200, body: { data: result.data, ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}) } };
}
