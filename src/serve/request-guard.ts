// Which requests serve answers at all (issue 26 §4). A page on another site can make the browser ask serve – by a name
// that resolves to 127.0.0.1 (DNS rebinding: the browser then treats serve as that site, and the page reads the
// answers) or by serve's own address (a cross-site link, form or image: the page cannot read the answer, but serve
// still does the work). So serve answers only requests addressed to its own names (Host), and only those that come
// from its own pages or from no page (Origin, Referer).
import { hostname, networkInterfaces } from 'node:os';
import type { IncomingHttpHeaders } from 'node:http';
import { UsageError } from '../util/errors.ts';

export interface Refusal {
  status: 421 | 403;
  message: string;
}

/** host[:port] as a URL spells it: lower case, IPv6 in brackets, the default port dropped. */
function authority(host: string, scheme = 'http:'): string | undefined {
  try {
    const url = new URL(`${scheme}//${host}`);
    return url.username || url.password || url.pathname !== '/' || url.search || url.hash ? undefined : url.host;
  } catch {
    return undefined;
  }
}

const bracketed = (name: string) => (name.includes(':') && !name.startsWith('[') ? `[${name}]` : name);

/** The names serve answers by on `port`: the address it listens on, and for loopback or any-address also these. */
export function ownNames(listenHost: string, port: number): string[] {
  const names = new Set([listenHost]);
  const loopback = ['localhost', '127.0.0.1', '::1'];
  if (loopback.includes(listenHost) || /^127\./.test(listenHost)) loopback.forEach((name) => names.add(name));
  if (listenHost === '0.0.0.0' || listenHost === '::') {
    // listening on every address: reached by any of this machine's own addresses, or its name
    loopback.forEach((name) => names.add(name));
    names.add(hostname());
    for (const list of Object.values(networkInterfaces())) for (const address of list ?? []) names.add(address.address.replace(/%.*$/, ''));
  }
  return [...names].map((name) => authority(`${bracketed(name)}:${port}`)).filter((spelled): spelled is string => spelled !== undefined);
}

/**
 * An --allow-host value: a name (any port: a reverse proxy may answer on 443 and pass its own Host) or name:port.
 * Refused: anything that is not a host name or address, e.g. a URL or a wildcard.
 */
export function parseAllowedHost(value: string): { name: string; port?: string } {
  const spelled = authority(value.trim());
  if (!spelled || value.includes('*') || value.includes('/')) {
    throw new UsageError(`--allow-host takes a host name or address, optionally with :port (e.g. ledger.internal or ledger.internal:8443), got '${value}'`);
  }
  const { hostname: name, port } = new URL(`http://${spelled}`);
  return { name, port: /:\d+$/.test(value.trim()) ? port || '80' : undefined };
}

export function requestGuard(listenHost: string, port: number, allowed: readonly string[]): (headers: IncomingHttpHeaders) => Refusal | undefined {
  const own = new Set(ownNames(listenHost, port));
  const extra = allowed.map(parseAllowedHost);
  const isOurs = (host: string): boolean => {
    if (own.has(host)) return true;
    const { hostname: name, port: hostPort } = new URL(`http://${host}`);
    return extra.some((allowedHost) => allowedHost.name === name && (allowedHost.port === undefined || allowedHost.port === (hostPort || '80')));
  };
  return (headers) => {
    const host = authority(headers.host ?? '');
    if (host === undefined || !isOurs(host)) {
      return { status: 421, message: `this is gpuledger serve; it answers only to its own address (${[...own][0]}) and to names given with --allow-host, not to '${headers.host ?? ''}'` };
    }
    // our own pages send no Referer (Referrer-Policy: no-referrer) and no Origin on a GET; anything else came from
    // another site – the scheme may differ behind a TLS proxy, the host and port may not
    for (const [header, value] of [['Origin', headers.origin], ['Referer', headers.referer]] as const) {
      if (value === undefined) continue;
      let from: string | undefined;
      try {
        const url = new URL(value);
        from = authority(url.host, url.protocol === 'https:' ? 'https:' : 'http:');
      } catch {
        from = undefined; // 'null' (a sandboxed or privacy-sensitive context) and anything unreadable: not ours
      }
      if (from !== host) return { status: 403, message: `gpuledger serve answers its own pages only; this request came from another site (${header}: ${value}) – open ${host} directly` };
    }
    return undefined;
  };
}
