// The slice of the GraphQL schema gpuledger reads (billing-api-v2.md §4): myself { endpoints { … } serverlessDiscount
// { … } }. Selections are validated against the schema first (unknown fields, missing or superfluous subselections,
// arguments), then resolved with only the selected fields, aliases honoured. Endpoints are those alive at now.
// The balance fields (balance-and-queue.md §1) come from the ledger's balance; a server may be told not to know
// some User fields or top-up fields (`hiddenFields`), to answer as an older or newer schema would.
import type { SimEndpoint, SyntheticAccount } from '../account/types.ts';
import { balanceFields, type SimBalance } from '../ledger/balance.ts';
import type { FieldNode, OperationNode } from './parser.ts';

type FieldType = { scalar: string } | { object: string; list: boolean; nullable: boolean };
const scalar = (type: string): FieldType => ({ scalar: type });
const object = (type: string, list = false, nullable = false): FieldType => ({ object: type, list, nullable });

const SCHEMA: Record<string, Record<string, FieldType>> = {
  Query: { myself: object('User') },
  User: {
    id: scalar('String!'),
    email: scalar('String'),
    endpoints: object('Endpoint', true),
    serverlessDiscount: object('ServerlessDiscount', false, true),
    clientBalance: scalar('Float'),
    currentSpendPerHr: scalar('Float'),
    spendLimit: scalar('Float'),
    minBalance: scalar('Float'),
    underBalance: scalar('Boolean'),
    stripeReloadHistory: object('StripeReload', true),
  },
  StripeReload: { amount: scalar('Float'), transactionCompletedAt: scalar('String'), type: scalar('String'), medium: scalar('String') },
  Endpoint: {
    id: scalar('String!'),
    name: scalar('String!'),
    gpuIds: scalar('String'),
    gpuCount: scalar('Int'),
    idleTimeout: scalar('Int'),
    locations: scalar('String'),
    networkVolumeId: scalar('String'),
    scalerType: scalar('String'),
    scalerValue: scalar('Int'),
    templateId: scalar('String'),
    type: scalar('String'),
    flashBootType: scalar('String'),
    workersMax: scalar('Int'),
    workersMin: scalar('Int'),
    pods: object('EndpointPod', true),
  },
  EndpointPod: { id: scalar('String'), desiredStatus: scalar('String') },
  ServerlessDiscount: { discountFactor: scalar('Float'), type: scalar('String'), expirationDate: scalar('String') },
};

const typeName = (t: FieldType) => ('scalar' in t ? t.scalar : t.list ? `[${t.object}]` : `${t.object}${t.nullable ? '' : '!'}`);

export interface GraphQLError {
  message: string;
  locations?: { line: number; column: number }[];
}

function validate(fields: FieldNode[], type: string, errors: GraphQLError[], hidden: ReadonlySet<string>): void {
  for (const f of fields) {
    const locations = [{ line: f.line, column: f.column }];
    if (f.name === '__typename') continue;
    const def = (type === 'User' || type === 'StripeReload') && hidden.has(f.name) ? undefined : SCHEMA[type]![f.name];
    if (!def) {
      errors.push({ message: `Cannot query field "${f.name}" on type "${type}".`, locations });
      continue;
    }
    for (const arg of f.args) errors.push({ message: `Unknown argument "${arg}" on field "${type}.${f.name}".`, locations });
    if ('scalar' in def && f.selections) {
      errors.push({ message: `Field "${f.name}" must not have a selection since type "${def.scalar}" has no subfields.`, locations });
    } else if ('object' in def && !f.selections) {
      errors.push({ message: `Field "${f.name}" of type "${typeName(def)}" must have a selection of subfields. Did you mean "${f.name} { ... }"?`, locations });
    } else if ('object' in def && f.selections) {
      validate(f.selections, def.object, errors, hidden);
    }
  }
}

type Source = Record<string, unknown>;

function resolve(fields: FieldNode[], type: string, source: Source): Source {
  const out: Source = {};
  for (const f of fields) {
    const key = f.alias ?? f.name;
    if (f.name === '__typename') {
      out[key] = type;
      continue;
    }
    const def = SCHEMA[type]![f.name]!;
    const value = source[f.name];
    if ('scalar' in def || value === null || value === undefined) out[key] = value ?? null;
    else if (def.list) out[key] = (value as Source[]).map((v) => resolve(f.selections!, def.object, v));
    else out[key] = resolve(f.selections!, def.object, value as Source);
  }
  return out;
}

function endpointSource(e: SimEndpoint): Source {
  // current workers: the warm ones plus about as many as the endpoint is busy at its peak
  const workers = e.workersMin + Math.round(e.traffic.peakWorkers);
  return {
    id: e.id,
    name: e.name,
    gpuIds: e.pools ? e.pools.join(',') : '',
    gpuCount: e.gpuCount,
    idleTimeout: e.idleTimeout,
    locations: e.locations,
    networkVolumeId: e.networkVolumeIds[0] ?? null,
    scalerType: e.scaling.type,
    scalerValue: e.scaling.type === 'QUEUE_DELAY' ? e.scaling.queueDelay : e.scaling.requestCount,
    templateId: e.templateId,
    type: e.type === 'QUEUE' ? 'QB' : 'LB',
    flashBootType: e.flashboot,
    workersMax: e.workersMax,
    workersMin: e.workersMin,
    pods: Array.from({ length: workers }, (_, i) => ({ id: `${e.id}-w${i}`, desiredStatus: 'RUNNING' })),
  };
}

const BALANCE_FIELDS = { clientBalance: 1, currentSpendPerHr: 1, spendLimit: 1, minBalance: 1, underBalance: 1, stripeReloadHistory: 1 };

export type ExecutionResult = { status: 200; body: { data: Source } } | { status: 400; body: { errors: GraphQLError[] } };

export interface ExecuteOptions {
  balance?: SimBalance;
  /** User fields this server does not know (answered like any unknown field). */
  hiddenFields?: ReadonlySet<string>;
}

export function execute(
  operations: OperationNode[],
  operationName: string | null,
  account: SyntheticAccount,
  now: number,
  options: ExecuteOptions = {},
): ExecutionResult {
  const fail = (message: string): ExecutionResult => ({ status: 400, body: { errors: [{ message }] } });
  const op = operationName === null ? operations[0] : operations.find((o) => o.name === operationName);
  if (operationName === null && operations.length > 1) return fail('Must provide operation name if query contains multiple operations.');
  if (!op) return fail(`Unknown operation named "${operationName}".`);
  if (op.operation !== 'query') return fail(`Schema is not configured to execute ${op.operation} operation.`);
  const errors: GraphQLError[] = [];
  validate(op.selections, 'Query', errors, options.hiddenFields ?? new Set());
  if (errors.length) return { status: 400, body: { errors } };
  const endpoints = account.endpoints.filter((e) => e.createdAt.getTime() <= now && (e.deletedAt === null || e.deletedAt.getTime() > now));
  // the balance costs a ledger sum: computed only when a balance field is asked for
  const asksBalance = op.selections.some((f) => f.selections?.some((u) => u.name in BALANCE_FIELDS));
  const balance = asksBalance && options.balance ? balanceFields(options.balance.at(now)) : {};
  const root: Source = {
    myself: {
      ...balance,
      id: `user_${account.seed}`,
      email: 'ml-platform@acme.example',
      endpoints: endpoints.map(endpointSource),
      serverlessDiscount: account.serverlessDiscount,
    },
  };
  return { status: 200, body: { data: resolve(op.selections, 'Query', root) } };
}
