// The quiet failures of issue 12 at the command line: a wrong --api-url fails at once in one line naming the URL;
// a key pasted with CR/LF works; a key with a control character inside is refused naming its variable, never itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gpuledger } from '../helpers/cli.ts';
import { smallSyncConfig, writeConfig } from '../helpers/sync.ts';
import { html, scriptedServer, type ScriptedServer } from '../helpers/scripted-server.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const SECRET = 'sk-live-cli-failures-0123456789';

describe('gpuledger sync with a wrong API URL or a mangled key', () => {
  const account = suiteFixture(() => simulatedAccount('gpuledger-test-', ({ sim, tmp }) => ({ config: writeConfig(tmp.dir, smallSyncConfig(sim)) }), { keys: [SECRET] }));

  const sync = (args: string[], key = SECRET, globals: string[] = []) =>
    gpuledger(['--config', account.config, '--db', account.tmp.db, ...globals, 'sync', '--source', 'aggregate', ...args], { GPULEDGER_TEST_KEY: key });

  describe.each([
    ['an HTML page', html(200)],
    ['a site that 404s every route', html(404)],
  ])('against %s', (_name, handler) => {
    let site: ScriptedServer;
    beforeAll(async () => {
      site = await scriptedServer(handler);
    });
    afterAll(() => site.close());

    it('fails after one request with one line naming the URL, not the key', async () => {
      const r = await sync([], SECRET, ['--api-url', `${site.url}/api`]);
      expect(r.code).toBe(2);
      const errors = r.stderr.trim().split('\n');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(new RegExp(`${site.url}/api does not look like the platform API`));
      expect(r.stderr).not.toMatch(/not complete JSON|attempts/);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(site.requests).toHaveLength(1);
      site.requests.length = 0;
    });
  });

  it.each([
    ['ftp://api.runpod.io', /API URL 'ftp:\/\/api\.runpod\.io' uses ftp:\/\/, which the platform API does not speak/],
    ['not a url', /API URL 'not a url' is not a valid URL/],
  ])('refuses --api-url %s at once with exit 2', async (url, message) => {
    const r = await sync([], SECRET, ['--api-url', url]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it.each([
    ['CRLF', `${SECRET}\r\n`],
    ['surrounding spaces', `  ${SECRET}\t`],
  ])('syncs with a key pasted with %s', async (_name, key) => {
    const r = await sync([], key);
    expect(r.stderr).not.toMatch(/warn|error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/run [0-9a-f-]+: success/);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it.each([
    ['a newline', 'sk-live-cli\nfailures-0123456789'],
    ['an escape', 'sk-live-cli\x1bfailures-0123456789'],
  ])('refuses a key with %s inside, naming the variable and never the key (exit 2)', async (_name, key) => {
    const r = await sync([], key);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/the environment variable GPULEDGER_TEST_KEY contains a control character \(U\+[0-9A-F]{4}\)/);
    expect(r.stdout + r.stderr).not.toContain('sk-live-cli');
    expect(r.stdout + r.stderr).not.toContain('failures-0123456789');
  });
});
