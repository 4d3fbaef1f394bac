// API keys (billing-api-v2.md §1): `Authorization: Bearer <key>`; a missing, malformed or unknown key is 401,
// a valid key without the billing scope (a "restricted" key) gets 403 on billing routes and on writes; a read-only
// key reads everything and gets 403 on writes (pod actions, endpoint updates: platform-api-overview.md
// "Authentication" 2). Keys never appear in answers or logs.

export interface KeyRing {
  full: ReadonlySet<string>;
  restricted: ReadonlySet<string>;
  /** Keys that read everything but may not write. */
  readOnly?: ReadonlySet<string>;
}

export type AuthResult = { ok: true; key: string; restricted: boolean; mayWrite: boolean } | { ok: false; detail: string };

export function checkKey(ring: KeyRing, key: string | null): AuthResult {
  if (key === null) return { ok: false, detail: 'missing API key: send the header Authorization: Bearer <key>' };
  if (ring.full.has(key)) return { ok: true, key, restricted: false, mayWrite: true };
  if (ring.restricted.has(key)) return { ok: true, key, restricted: true, mayWrite: false };
  if (ring.readOnly?.has(key)) return { ok: true, key, restricted: false, mayWrite: false };
  return { ok: false, detail: 'invalid API key' };
}

/** The key from an Authorization header; '' when the header is present but not `Bearer <token>`. */
export function bearerKey(header: string | undefined): string | null | '' {
  if (header === undefined) return null;
  const m = /^Bearer +([^\s]+) *$/i.exec(header);
  return m ? m[1]! : '';
}

export function authenticate(ring: KeyRing, header: string | undefined): AuthResult {
  const key = bearerKey(header);
  if (key === '') return { ok: false, detail: 'malformed Authorization header: expected Bearer <key>' };
  return checkKey(ring, key);
}
