// The one rule for every URL gpuledger takes (API, queue API, PostgreSQL, webhooks): what it stores, logs, renders
// or sends on is the URL without its credentials. A credential is the userinfo – user name and password, both: a
// user name alone is often a token (`https://<token>@host`) – and the value of any query parameter whose name says
// it holds one (token, key, password, secret, signature, auth…: `?token=`, `?api_key=`, Azure's `sig=`, S3's
// `X-Amz-Credential=`). The userinfo goes entirely; a parameter keeps its name with `***` for its value, so a message
// still says which parameter was configured. The credentials themselves reach only the connection that needs them
// (a webhook's basic auth and token: channels/webhook.ts), and redact() (secrets.ts) masks them wherever else a
// message might quote them.

// scheme://[userinfo@]host[:port][/path][?query] inside a line of text; the userinfo runs to the last @ before the
// first / ? # (a password may hold an @). Quotes and angle brackets end it: a URL in JSON or HTML is not read past
// its closing quote into the next string.
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s/?#"<>`]*@)?([^\s?#"<>`]*)(\?[^\s#"<>`]*)?/gi;
const QUERY_PARAM = /([?&;])([^=&;#\s"'<>`]+)=([^&;#\s"'<>`]*)/g;
const CREDENTIAL_NAME = /token|key|pass|pwd|secret|sig|auth|credential|session|cookie/i;

/** A percent-encoded part of a URL decoded; a stray % that is no escape stays as typed. */
export function decodedUrlPart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a query parameter's name says its value is a credential (token, api_key, password, X-Amz-Signature…). */
export function isCredentialParam(name: string): boolean {
  return CREDENTIAL_NAME.test(decodedUrlPart(name));
}

function scrubQuery(query: string): string {
  return query.replace(QUERY_PARAM, (whole, sep: string, name: string, value: string) => (value !== '' && isCredentialParam(name) ? `${sep}${name}=***` : whole));
}

/** Every URL in a line of text without its credentials; the rest of the text, and a URL without any, as it was. */
export function scrubUrlsInText(text: string): string {
  return text.replace(URL_IN_TEXT, (_whole, scheme: string, rest: string, query: string | undefined) => `${scheme}${rest}${query === undefined ? '' : scrubQuery(query)}`);
}

/**
 * A URL as gpuledger may keep or show it: no user name, no password, `***` for the value of a credential parameter;
 * otherwise as given (not normalized, so a stored URL reads as the user typed it). Use it for every URL that is
 * stored, logged, rendered or sent anywhere but to its own server.
 */
export function withoutCredentials(url: string | URL): string {
  return scrubUrlsInText(String(url));
}

/**
 * The secrets a URL carries – its password and credential parameter values, as typed and decoded – for redact() to
 * mask wherever they turn up outside a URL. Not the user name: often a plain word (a login like "gpuledger") that
 * would then be masked in every message; inside a URL withoutCredentials() removes it.
 */
export function urlSecrets(url: string | URL): string[] {
  let u: URL;
  try {
    u = new URL(String(url));
  } catch {
    return [];
  }
  // u.password is as typed (percent-encoded), searchParams are decoded: each in both spellings, as a line may quote either
  const values = [...u.searchParams].filter(([name]) => isCredentialParam(name)).map(([, value]) => value);
  const all = [u.password, decodedUrlPart(u.password), ...values, ...values.map((v) => encodeURIComponent(v))];
  return [...new Set(all)].filter((v) => v !== '');
}
