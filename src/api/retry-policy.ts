// What the request loop does after each failed attempt, as one table: retry with backoff (transient), wait for the
// rate-limit window and retry (429), or fail at once. billing-api-v2.md §5: "Retry 5xx and connection faults with
// bounded, jittered backoff"; a 429 carries Retry-After. Only the answers a repeat can change are transient: 501 (Not
// Implemented) and 505 (HTTP Version Not Supported) say the same thing every time, and so does every 4xx but 408/429.
// The decision is made on the status or the error's code – the kind of failure – never on message text.

export type Action = 'retry' | 'wait' | 'fail';

export interface Decision {
  action: Action;
  /** Why: shown in debug logs and tests, so a reader of the table sees the reasoning. */
  reason: string;
}

const retry = (reason: string): Decision => ({ action: 'retry', reason });
const fail = (reason: string): Decision => ({ action: 'fail', reason });

/** Every status the client treats specially; an unlisted status falls back to its class (statusDecision). */
export const STATUS_DECISIONS: ReadonlyMap<number, Decision> = new Map([
  [400, fail('a rule conflict in the parameters (billing-api-v2.md §1); the same request is refused again')],
  [401, fail('the key is missing, malformed or invalid (§1); only a new key helps')],
  [403, fail('the key lacks the scope for this route (§1); only a new scope helps')],
  [404, fail('no such route or object; the same path is missing again')],
  [405, fail('the route does not take this method')],
  [408, retry('the server timed out waiting for the request; a fresh attempt can succeed')],
  [422, fail('a malformed parameter value (§1, assumed mapping)')],
  [429, { action: 'wait', reason: 'rate limited: wait for Retry-After and every exhausted window (§5), then repeat' }],
  [500, retry('internal server error: transient by §5')],
  [501, fail('not implemented: the server will never serve this request')],
  [502, retry('bad gateway: a proxy lost the upstream, transient')],
  [503, retry('service unavailable: overload or deploy, transient')],
  [504, retry('gateway timeout: transient')],
  [505, fail('HTTP version not supported: every repeat is refused the same way')],
]);

export function statusDecision(status: number): Decision {
  const listed = STATUS_DECISIONS.get(status);
  if (listed) return listed;
  if (status >= 500) return fail(`${status}: a server error not known to be transient`);
  return fail(`${status}: the request was refused; repeating it cannot help`);
}

/** Failures without a usable HTTP answer, by kind. */
export type FailureKind =
  | 'connection-reset'
  | 'connection-refused'
  | 'timeout'
  | 'truncated-body'
  | 'incomplete-json'
  | 'host-not-found'
  | 'invalid-argument'
  | 'not-tls'
  | 'tls-certificate'
  | 'network';

export const FAILURE_DECISIONS: Readonly<Record<FailureKind, Decision>> = {
  'connection-reset': retry('the connection broke mid-request: transient by §5'),
  'connection-refused': retry('nothing listens yet (a restart or deploy): transient'),
  timeout: retry('connect, headers or body timed out: transient'),
  'truncated-body': retry('fewer bytes than Content-Length arrived: the connection broke, transient'),
  'incomplete-json': retry('a JSON answer that does not parse: cut off on the way, transient'),
  'host-not-found': fail('the host name does not resolve: a wrong URL, not an outage'),
  'invalid-argument': fail('undici refused to send the request (an invalid header value): a repeat is refused too'),
  'not-tls': fail('an https:// URL on a port that answers plain HTTP: every handshake fails the same way'),
  'tls-certificate': fail('the server\'s certificate is not trusted: a repeat meets the same certificate'),
  network: retry('another network error: treated as a connection fault, transient'),
};

const CODE_KINDS: Readonly<Record<string, FailureKind>> = {
  ECONNRESET: 'connection-reset',
  EPIPE: 'connection-reset',
  UND_ERR_SOCKET: 'connection-reset',
  UND_ERR_CLOSED: 'connection-reset',
  ECONNREFUSED: 'connection-refused',
  ETIMEDOUT: 'timeout',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ENOTFOUND: 'host-not-found',
  UND_ERR_INVALID_ARG: 'invalid-argument',
  ERR_INVALID_ARG_TYPE: 'invalid-argument',
  ERR_INVALID_ARG_VALUE: 'invalid-argument',
  ERR_INVALID_HTTP_TOKEN: 'invalid-argument',
  ERR_INVALID_CHAR: 'invalid-argument',
  // OpenSSL reading a plain-HTTP answer ("HTTP/1.1 400 …") as a TLS record
  ERR_SSL_WRONG_VERSION_NUMBER: 'not-tls',
  ERR_SSL_PACKET_LENGTH_TOO_LONG: 'not-tls',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'tls-certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'tls-certificate',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'tls-certificate',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'tls-certificate',
  CERT_HAS_EXPIRED: 'tls-certificate',
  ERR_TLS_CERT_ALTNAME_INVALID: 'tls-certificate',
};

/** The kind of a thrown network error, by its `code` (undici and Node set one on every error they raise). */
export function failureKind(error: unknown): FailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && CODE_KINDS[code]) || 'network';
}
