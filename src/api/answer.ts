// What one attempt brought back, read the same way for every route: an answer to hand on, or a typed failure with
// the retry policy's decision about it. Kept apart from the loop in request.ts, which only counts and waits.
import { errorMessage, type GpuledgerError } from '../util/errors.ts';
import { redact } from '../util/secrets.ts';
import { ApiArgumentError, ApiAuthError, ApiForbiddenError, ApiNotPlatformError, ApiNotTlsError, ApiRequestError, ApiServerError, ApiTransportError, type Problem } from './errors.ts';
import { FAILURE_DECISIONS, failureKind, statusDecision, type Decision, type FailureKind } from './retry-policy.ts';
import { problemSchema } from './schemas.ts';
import { API_URL_SOURCE, type UrlSource } from './url-source.ts';

export interface ApiAnswer {
  /** The body as the call's readBody made it (default: JSON.parse). */
  json: unknown;
  bytes: number;
}

const parseJson = (body: Buffer): unknown => JSON.parse(body.toString('utf8'));

/** A failed attempt: the policy's decision, the typed error (thrown, or the cause after the last retry) and a short reason. */
export interface Failure {
  decision: Decision;
  error: GpuledgerError;
  reason: string;
  retryAfterSeconds?: number;
  /** No answer at all, and why (the breaker counts timeouts); absent when the server answered. */
  kind?: FailureKind;
}

/** How messages name the base URL and the setting that chose it. */
export interface AnswerContext {
  url: string;
  apiKeyEnv: string;
  source?: UrlSource;
}

type Headers = Record<string, string | string[] | undefined>;

export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

function parseProblem(text: string): Problem | undefined {
  try {
    const parsed = problemSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as Problem) : undefined;
  } catch {
    return undefined;
  }
}

/** No answer at all: undici or the socket threw. `ctx.url` is the base URL as messages show it. */
export function networkFailure(ctx: Pick<AnswerContext, 'url' | 'source'>, what: string, e: unknown): Failure {
  const kind = failureKind(e);
  const code = (e as { code?: string }).code;
  const reason = `${code ?? 'network error'}: ${redact(errorMessage(e))}`;
  const source = ctx.source ?? API_URL_SOURCE;
  const error =
    kind === 'invalid-argument'
      ? new ApiArgumentError(what, redact(errorMessage(e)), { cause: e })
      : kind === 'host-not-found'
        ? new ApiTransportError(what, `the host of ${ctx.url} does not resolve; check ${source.flag}`, { cause: e })
        : kind === 'not-tls'
          ? new ApiNotTlsError(what, ctx.url, { cause: e })
          : kind === 'tls-certificate'
            ? new ApiTransportError(what, `the TLS certificate of ${ctx.url} is not trusted (${code}); check ${source.flag}, or the server's certificate`, { cause: e })
            : new ApiTransportError(what, reason, { cause: e });
  return { decision: FAILURE_DECISIONS[kind], error, reason, kind };
}

/** A complete answer: JSON for a 2xx, otherwise the typed refusal for its status. */
export function readAnswer(
  ctx: AnswerContext,
  what: string,
  path: string,
  status: number,
  headers: Headers,
  body: Buffer,
  readBody: (body: Buffer) => unknown = parseJson,
): { answer: ApiAnswer } | Failure {
  const contentType = (header(headers, 'content-type') ?? 'no content type').split(';')[0]!.trim();
  const isJson = /\bjson\b/i.test(contentType);
  if (status >= 200 && status < 300) {
    try {
      return { answer: { json: readBody(body), bytes: body.length } };
    } catch (e) {
      if (!(e instanceof SyntaxError)) throw e;
      // §1: success bodies are application/json; an HTML page with 200 is some other site, not a cut-off answer
      if (!isJson) {
        const reason = `${what} answered ${status} with ${contentType}, not JSON`;
        return { decision: { action: 'fail', reason }, error: new ApiNotPlatformError(ctx.url, reason, { cause: e, source: ctx.source }), reason };
      }
      const reason = 'a body that is not complete JSON';
      return { decision: FAILURE_DECISIONS['incomplete-json'], error: new ApiTransportError(what, reason, { cause: e }), reason };
    }
  }
  const problem = parseProblem(body.toString('utf8'));
  const decision = statusDecision(status);
  const reason = `${status} ${problem?.detail ?? problem?.title ?? ''}`.trim();
  if (status === 429) {
    const retryAfter = Number(header(headers, 'retry-after'));
    const error = new ApiServerError(what, 429, problem ?? { detail: 'rate limited' });
    return { decision, error, reason: problem ? reason : '429 rate limited', retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined };
  }
  if (status === 401) return { decision, error: new ApiAuthError(ctx.apiKeyEnv, problem), reason };
  if (status === 403) return { decision, error: new ApiForbiddenError(ctx.apiKeyEnv, path, problem), reason };
  // §1: errors are problem+json; a bare 404 page is a web server that knows no /v2 routes
  if (status === 404 && !problem && !isJson) {
    return { decision, error: new ApiNotPlatformError(ctx.url, `${what} answered 404 without a problem document`, { source: ctx.source }), reason };
  }
  if (status >= 500) return { decision, error: new ApiServerError(what, status, problem), reason };
  return { decision, error: new ApiRequestError(what, path, status, problem), reason };
}
