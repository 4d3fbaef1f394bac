// The API base URL is checked before any request: the platform speaks HTTPS (billing-api-v2.md §1, base URL
// https://api.runpod.io; plain http for the simulator on loopback), so `ftp://…` or a bare host name is a
// configuration mistake to name at once (exit 2), not something to retry seven times.
import { withoutCredentials } from '../util/url-credentials.ts';
import { ApiUrlError } from './errors.ts';

const ACCEPTED = 'an http:// or https:// URL such as https://api.runpod.io';


/** The URL as messages show it: without its credentials (url-credentials.ts), without a trailing slash. */
export function displayUrl(url: URL | string): string {
  return withoutCredentials(url).replace(/\/+$/, '');
}

/** Parse and check an API base URL; throws ApiUrlError naming the URL (never a key) and what is accepted. */
export function checkApiUrl(raw: string, label = 'API URL'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (e) {
    throw new ApiUrlError(`${label} '${displayUrl(raw)}' is not a URL; expected ${ACCEPTED}`, { cause: e });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:8787` parses as the scheme "localhost:"
    if (!raw.includes('://')) throw new ApiUrlError(`${label} '${displayUrl(raw)}' has no http:// or https:// scheme; expected ${ACCEPTED}`);
    throw new ApiUrlError(`${label} '${displayUrl(url)}' uses ${url.protocol.replace(/:$/, '')}://, which the platform API does not speak; expected ${ACCEPTED}`);
  }
  if (url.search || url.hash) {
    throw new ApiUrlError(`${label} '${displayUrl(url)}' has a query or fragment; expected ${ACCEPTED} (a path prefix is fine)`);
  }
  return url;
}
