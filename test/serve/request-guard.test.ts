import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { ownNames, parseAllowedHost, requestGuard } from '../../src/serve/request-guard.ts';

describe('which requests serve answers', () => {
  it('knows its own names: the listen address and port, loopback names for loopback, the machine\'s for any address', () => {
    expect(ownNames('127.0.0.1', 8080).sort()).toEqual(['127.0.0.1:8080', '[::1]:8080', 'localhost:8080']);
    expect(ownNames('::1', 80).sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']); // port 80 is no port
    expect(ownNames('10.1.2.3', 8080)).toEqual(['10.1.2.3:8080']);
    const any = ownNames('0.0.0.0', 8080);
    expect(any).toEqual(expect.arrayContaining(['127.0.0.1:8080', 'localhost:8080', `${hostname().toLowerCase()}:8080`]));
  });

  it('answers a Host without a port on port 80, and refuses other names and ports with 421', () => {
    const guard = requestGuard('127.0.0.1', 80, []);
    expect(guard({ host: 'localhost' })).toBeUndefined();
    expect(guard({ host: 'localhost:80' })).toBeUndefined();
    expect(guard({ host: 'localhost:8080' })?.status).toBe(421);
    expect(guard({ host: 'attacker.example' })?.status).toBe(421);
    expect(guard({})?.status).toBe(421);
    expect(guard({ host: 'user@localhost' })?.status).toBe(421);
  });

  it('takes a TLS proxy\'s Origin for its own, and refuses another site\'s, a different port, and null', () => {
    const guard = requestGuard('127.0.0.1', 8080, ['ledger.internal']);
    expect(guard({ host: 'ledger.internal', origin: 'https://ledger.internal' })).toBeUndefined();
    expect(guard({ host: 'ledger.internal', referer: 'https://ledger.internal/drill?family=pod' })).toBeUndefined();
    expect(guard({ host: 'ledger.internal', origin: 'https://ledger.internal:8443' })?.status).toBe(403);
    expect(guard({ host: 'ledger.internal', origin: 'https://attacker.example' })?.status).toBe(403);
    expect(guard({ host: '127.0.0.1:8080', origin: 'null' })?.status).toBe(403);
    expect(guard({ host: '127.0.0.1:8080', referer: 'not a url' })?.status).toBe(403);
  });

  it('reads --allow-host as a name (any port) or name:port, and refuses URLs and wildcards in one line', () => {
    expect(parseAllowedHost('Ledger.Internal')).toEqual({ name: 'ledger.internal', port: undefined });
    expect(parseAllowedHost('ledger.internal:8443')).toEqual({ name: 'ledger.internal', port: '8443' });
    expect(parseAllowedHost('ledger.internal:80')).toEqual({ name: 'ledger.internal', port: '80' });
    expect(parseAllowedHost('[::1]:9000')).toEqual({ name: '[::1]', port: '9000' });
    for (const bad of ['http://ledger.internal/', '*.internal', 'ledger.internal/x', 'user@ledger.internal', '']) {
      expect(() => parseAllowedHost(bad), bad).toThrow(/^--allow-host takes a host name or address, optionally with :port/);
    }
  });
});
