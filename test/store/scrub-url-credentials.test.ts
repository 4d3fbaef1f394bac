// Migration 020: a database written before URLs lost their credentials on the way in (issue 26 §1) loses them on
// upgrade – the account's API URL that dim_account, rpt_accounts, reports and serve show, and earlier runs' command
// lines and messages – and keeps everything else of those rows.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/database.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { openMigratedStore } from '../helpers/view-store.ts';

const SECRET = 'S3CR3T-old-password-5d1c';

describe('migration 020_scrub_url_credentials', () => {
  it('removes the user and password of the URLs an older gpuledger stored, and nothing else', async () => {
    const path = join(tempDir('gpuledger-scrub-').dir, 'old.duckdb');
    const old = await openMigratedStore(path); // the worker's migrated template, copied
    try {
      // the rows as an older version wrote them, and the database as it stood before 020
      await old.run(`insert into _meta_accounts (account, api_url, simulated, first_sync_at, last_sync_at) values
        ('main', 'http://gpuledger:${SECRET}@127.0.0.1:8787', true, now(), now()),
        ('token-user', 'https://${SECRET}@proxy.example/runpod', false, now(), now()),
        ('plain', 'https://api.runpod.io', false, now(), now())`);
      await old.run(`insert into _meta_runs (run_id, command, args, started_at, status, errors, summary) values
        ('r1', 'sync', '--api-url http://gpuledger:${SECRET}@127.0.0.1:8787 sync --source balance', now(), 'success', null, null),
        ('r2', 'sync', '--queue-api-url http://q:***@127.0.0.1:9 sync', now(), 'failed',
         '[{"source":"health","message":"GET http://q:${SECRET}@127.0.0.1:9/v2/x/health: refused"}]', '{"to":"finops@example.com"}'),
        ('r3', 'report', '--format both', now(), 'success', null, '{"to":"finops@example.com"}')`);
      await old.run('delete from _meta_schema_version where version = 20');
    } finally {
      await old.close();
    }

    const store = await openStore({ path, command: 'test' });
    try {
      expect(await store.all('select account, api_url from _meta_accounts order by account')).toEqual([
        { account: 'main', api_url: 'http://127.0.0.1:8787' },
        { account: 'plain', api_url: 'https://api.runpod.io' },
        { account: 'token-user', api_url: 'https://proxy.example/runpod' },
      ]);
      expect(await store.all('select run_id, args, errors::varchar as errors, summary::varchar as summary from _meta_runs order by run_id')).toEqual([
        { run_id: 'r1', args: '--api-url http://127.0.0.1:8787 sync --source balance', errors: null, summary: null },
        {
          run_id: 'r2',
          args: '--queue-api-url http://127.0.0.1:9 sync',
          errors: '[{"source":"health","message":"GET http://127.0.0.1:9/v2/x/health: refused"}]',
          summary: '{"to":"finops@example.com"}',
        },
        { run_id: 'r3', args: '--format both', errors: null, summary: '{"to":"finops@example.com"}' },
      ]);
      const shown = await store.all<{ api_url: string }>('select api_url from dim_account');
      expect(JSON.stringify(shown)).not.toContain(SECRET);
    } finally {
      await store.close();
    }
  });
});
