// What can go wrong talking to the platform, as typed errors whose messages a user can act on. None of them ever
// carries the API key: messages name the environment variable that holds it.
import { EXIT, GpuledgerError, type GpuledgerErrorOptions } from '../util/errors.ts';
import { API_URL_SOURCE, type UrlSource } from './url-source.ts';

/** An RFC 9457 problem document as the API sends it (billing-api-v2.md §1). */
export interface Problem {
  title?: string;
  status?: number;
  detail?: string;
  errors?: string[];
}

function problemText(p: Problem | undefined): string {
  if (!p) return '';
  const parts = [p.detail ?? p.title ?? ''];
  if (p.errors?.length) parts.push(`(${p.errors.join('; ')})`);
  return parts.filter(Boolean).join(' ');
}

/** 401: the key is missing, malformed or invalid – a configuration problem (exit 2). */
export class ApiAuthError extends GpuledgerError {
  constructor(apiKeyEnv: string, problem: Problem | undefined, options?: GpuledgerErrorOptions) {
    const detail = problemText(problem);
    super('api_auth', `the API key in ${apiKeyEnv} was rejected (401)${detail ? `: ${detail}` : ''}`, EXIT.usage, options);
  }
}

/** 403: a valid key without the scope for this route (exit 2). */
export class ApiForbiddenError extends GpuledgerError {
  readonly path: string;
  constructor(apiKeyEnv: string, path: string, problem: Problem | undefined, options?: GpuledgerErrorOptions) {
    const detail = problemText(problem);
    super('api_forbidden', `the API key in ${apiKeyEnv} may not read ${path} (403)${detail ? `: ${detail}` : ''}; give the key the billing scope`, EXIT.usage, options);
    this.path = path;
  }
}

/** 400/404/405/422 (and any status the retry policy calls terminal): the request was refused; retrying cannot help. */
export class ApiRequestError extends GpuledgerError {
  readonly status: number;
  readonly path: string;
  constructor(what: string, path: string, status: number, problem: Problem | undefined, options?: GpuledgerErrorOptions) {
    const detail = problemText(problem);
    super('api_request', `${what} was refused (${status})${detail ? `: ${detail}` : ''}`, EXIT.failure, options);
    this.status = status;
    this.path = path;
  }
}

/** The answer does not match the contract (a missing amount, a corrupt page): never loaded, never guessed. */
export class ApiResponseError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('api_response', message, EXIT.failure, options);
  }
}

/** A 5xx answer: transient ones are retried (retry-policy.ts); the error is the cause of an ApiUnavailableError then. */
export class ApiServerError extends GpuledgerError {
  readonly status: number;
  constructor(what: string, status: number, problem: Problem | undefined, options?: GpuledgerErrorOptions) {
    const detail = problemText(problem);
    super('api_server', `${what} answered ${status}${detail ? `: ${detail}` : ''}`, EXIT.failure, options);
    this.status = status;
  }
}

/** No usable answer arrived: a reset, a timeout, a truncated body or one that is not complete JSON. */
export class ApiTransportError extends GpuledgerError {
  constructor(what: string, reason: string, options?: GpuledgerErrorOptions) {
    super('api_transport', `${what}: ${reason}`, EXIT.failure, options);
  }
}

/** Retries exhausted on 5xx, resets, truncated bodies, timeouts or 429s; `cause` is the last failure. */
export class ApiUnavailableError extends GpuledgerError {
  constructor(what: string, attempts: number, lastCause: string, options?: GpuledgerErrorOptions) {
    super('api_unavailable', `${what} failed after ${attempts} attempts; last: ${lastCause}`, EXIT.failure, options);
  }
}

/** The URL answers, but not as the platform API does (an HTML page, 404 on every route): a wrong --api-url (or --queue-api-url). */
export class ApiNotPlatformError extends GpuledgerError {
  readonly url: string;
  constructor(url: string, evidence: string, options?: GpuledgerErrorOptions & { source?: UrlSource }) {
    const s = options?.source ?? API_URL_SOURCE;
    super('api_not_platform', `${url} does not look like the platform API (${evidence}); check ${s.flag}, ${s.env} or ${s.config} in the config (expected e.g. ${s.example})`, EXIT.usage, options);
    this.url = url;
  }
}

/** An https:// URL whose port answers plain HTTP: the URL is wrong (exit 2), and no retry can fix it. */
export class ApiNotTlsError extends GpuledgerError {
  constructor(what: string, url: string, options?: GpuledgerErrorOptions) {
    super('api_not_tls', `${what}: ${url} does not speak TLS; did you mean ${url.replace(/^https:/, 'http:')}?`, EXIT.usage, options);
  }
}

/** The API URL itself is unusable (not http/https): invalid configuration (exit 2), detected before any request. */
export class ApiUrlError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('api_url', message, EXIT.usage, options);
  }
}

/** undici refused to send the request (an invalid header value, a malformed path): never retried, exit 2. */
export class ApiArgumentError extends GpuledgerError {
  constructor(what: string, reason: string, options?: GpuledgerErrorOptions) {
    super('api_argument', `${what} could not be sent: ${reason}`, EXIT.usage, options);
  }
}

/** GraphQL answered with `errors`, or not at all. */
export class ApiGraphqlError extends GpuledgerError {
  constructor(message: string, options?: GpuledgerErrorOptions) {
    super('api_graphql', message, EXIT.failure, options);
  }
}

/** A write whose answer never came (a timeout, a reset, a 5xx): it may or may not have taken effect – read it back. */
export class ApiWriteUnknownError extends GpuledgerError {
  constructor(what: string, reason: string, options?: GpuledgerErrorOptions) {
    super('api_write_unknown', `${what}: no answer (${reason}); whether it took effect is read back from the inventory`, EXIT.failure, options);
  }
}
