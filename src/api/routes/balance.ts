// POST /graphql myself { clientBalance currentSpendPerHr spendLimit … } (balance-and-queue.md §1): the query the
// platform's CLI sends, plus optional fields only third-party typings show. A GraphQL server refuses the whole query
// for one unknown field, so a refusal naming an optional field drops that field, remembers it for the client's life
// and asks again; one naming a required field (or any other refusal) is an ApiGraphqlError the caller degrades on.
import { z } from 'zod';
import { numberToMicros, microsToDecimalString } from '../../util/decimal.ts';
import { errorMessage } from '../../util/errors.ts';
import type { BalanceReading, BalanceSource, TopUp } from '../balance.ts';
import { ApiGraphqlError, ApiRequestError } from '../errors.ts';
import type { ApiRequester } from '../request.ts';
import { describeIssue } from '../schemas.ts';

const REQUIRED = ['clientBalance', 'currentSpendPerHr', 'spendLimit'] as const;
const OPTIONAL = {
  underBalance: 'underBalance',
  minBalance: 'minBalance',
  stripeReloadHistory: 'stripeReloadHistory { amount transactionCompletedAt type medium }',
} as const;
/** A platform that does not know a top-up's medium still lists its top-ups: asked again without it. */
const WITHOUT_MEDIUM = 'stripeReloadHistory { amount transactionCompletedAt type }';
type OptionalField = keyof typeof OPTIONAL;

// an amount the store can hold (DECIMAL(18,6)): anything larger is not a balance but a broken answer, said here
// rather than as a conversion error when the reading is loaded
const usd = z
  .number()
  .finite()
  .refine((x) => Math.abs(x) < 1e12, { message: 'outside any amount gpuledger stores (at most $999,999,999,999.999999 either way)' });
const myselfSchema = z.looseObject({
  clientBalance: usd,
  currentSpendPerHr: usd,
  spendLimit: usd,
  underBalance: z.boolean().nullable().optional(),
  minBalance: usd.nullable().optional(),
  stripeReloadHistory: z
    .array(z.looseObject({ amount: usd, transactionCompletedAt: z.string().min(1), type: z.string().min(1), medium: z.string().min(1).nullable().optional() }))
    .nullable()
    .optional(),
});
const answerSchema = z.looseObject({
  data: z.looseObject({ myself: myselfSchema }).nullable().optional(),
  errors: z.array(z.looseObject({ message: z.string() })).optional(),
});

const dollars = (x: number) => microsToDecimalString(numberToMicros(x));

/** The fields a refusal names as unknown (`Cannot query field "x" on type "User".`, graphql-js wording). */
function unknownFields(message: string): string[] {
  return [...message.matchAll(/Cannot query field "([A-Za-z_][A-Za-z0-9_]*)"/g)].map((m) => m[1]!);
}

export function createGraphqlBalanceSource(requester: ApiRequester): BalanceSource {
  const missing = new Set<OptionalField>();
  let withoutMedium = false;
  const what = 'POST /graphql (myself balance)';

  /** One attempt: the reading, or the messages of a refusal. */
  const ask = async (signal?: AbortSignal): Promise<{ reading: BalanceReading } | { refusal: string }> => {
    const optional = (Object.keys(OPTIONAL) as OptionalField[]).filter((f) => !missing.has(f));
    const selection = (f: OptionalField) => (f === 'stripeReloadHistory' && withoutMedium ? WITHOUT_MEDIUM : OPTIONAL[f]);
    const query = `query { myself { ${[...REQUIRED, ...optional.map(selection)].join(' ')} } }`;
    let json: unknown;
    try {
      ({ json } = await requester.request({ what, method: 'POST', path: '/graphql', body: JSON.stringify({ query }), signal }));
    } catch (e) {
      // graphql-js servers answer a validation error with 400 and {errors}; schemas.ts reads those as the problem
      if (e instanceof ApiRequestError && e.status === 400) return { refusal: errorMessage(e).replace(`${what} was refused (400): `, '') };
      throw e;
    }
    const parsed = answerSchema.safeParse(json);
    if (parsed.success && parsed.data.errors?.length) return { refusal: parsed.data.errors.map((e) => e.message).join('; ') };
    if (!parsed.success) throw new ApiGraphqlError(`${what}: ${describeIssue(parsed.error)}`);
    const m = parsed.data.data?.myself;
    if (!m) throw new ApiGraphqlError(`${what}: no data in the answer`);
    const topUps: TopUp[] | null =
      m.stripeReloadHistory == null ? null : m.stripeReloadHistory.map((r) => ({
            amount: dollars(r.amount),
            completedAt: r.transactionCompletedAt,
            type: r.type,
            medium: r.medium ?? null,
          }));
    return {
      reading: {
        balance: dollars(m.clientBalance),
        spendPerHour: dollars(m.currentSpendPerHr),
        spendLimit: dollars(m.spendLimit),
        underBalance: m.underBalance ?? null,
        minBalance: m.minBalance == null ? null : dollars(m.minBalance),
        topUps,
        missing: [...missing],
      },
    };
  };

  return {
    name: 'GraphQL myself',
    async read(signal) {
      for (;;) {
        const result = await ask(signal);
        if ('reading' in result) return result.reading;
        const named = unknownFields(result.refusal);
        const droppable = named.filter((f): f is OptionalField => f in OPTIONAL && !missing.has(f as OptionalField));
        const medium = !withoutMedium && !missing.has('stripeReloadHistory') && named.includes('medium');
        // only a refusal that names nothing but optional fields we still ask for can be cured by asking less
        if ((droppable.length === 0 && !medium) || droppable.length + (medium ? 1 : 0) !== named.length) throw new ApiGraphqlError(`${what}: ${result.refusal}`);
        for (const f of droppable) missing.add(f);
        if (medium) withoutMedium = true;
      }
    },
  };
}
