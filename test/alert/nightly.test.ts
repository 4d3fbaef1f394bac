// The nightly job with a dead webhook and a dead SMTP server: the alerts step tries the webhook once (the breaker
// opens on the refused connection), keeps every event owed, the report email gives up without backoff, and the job
// exits 3 – the next run still owes the events and still exits 3.
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import { resolveAccounts } from '../../src/extract/accounts.ts';
import { runNightly } from '../../src/run/nightly.ts';
import { withReader } from '../../src/store/shared-database.ts';
import { silentLogger } from '../../src/util/log.ts';
import { KEY, smallSyncConfig } from '../helpers/sync.ts';
import { closedPort } from '../helpers/alert-delivery.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

describe('gpuledger run with dead channels', () => {
  const account = suiteFixture(() => simulatedAccount('gpuledger-nightly-alerts-', () => ({})));

  it('tries a dead webhook once for all its events, keeps them owed, and exits 3 on this run and the next', async () => {
    const hookPort = await closedPort();
    const smtpPort = await closedPort();
    const config = parseConfig(
      {
        ...smallSyncConfig(account.sim, { outDir: account.tmp.dir }),
        smtp: { host: '127.0.0.1', port: smtpPort, from: 'gpuledger <finops@example.com>' },
        reports: { delivery: { nightly: { recipients: ['finance@example.com'] } } },
        alerts: {
          // budgets only: each rule costs evaluation time, and the breaker is about the channel, not the rules
          anomaly: { enabled: false },
          waste: { enabled: false },
          dataQuality: { enabled: false },
          budgets: Array.from({ length: 8 }, (_, i) => ({ name: `n${i}`, amount: '1.00', thresholds: [100], on: ['actual' as const] })),
          channels: [{ type: 'webhook', name: 'dead', url: `http://127.0.0.1:${hookPort}/hook` }],
        },
      },
      'test',
    );
    const nightly = () =>
      runNightly({
        config,
        dbPath: account.tmp.db,
        accounts: resolveAccounts(config, config.apiUrl, { GPULEDGER_TEST_KEY: KEY }),
        log: silentLogger,
        client: { initialRatePerSecond: 1000 },
      });
    const first = await nightly();
    expect(first.steps.find((s) => s.step === 'sync')?.status).toBe('ok');
    const alerts = first.steps.find((s) => s.step === 'alerts')!;
    expect(alerts.status).toBe('partial');
    expect(alerts.detail).toMatch(/still owed: webhook:dead: \d+ pending, oldest from/);
    expect(first.delivery?.attempts).toBe(1);
    expect(first.exitCode).toBe(3);
    const owed = await withReader(account.tmp.db, (s) =>
      s.one<{ pending: number; attempts: number }>(
        `select count(*) filter (status = 'pending')::integer as pending, sum(attempts)::integer as attempts from _meta_alert_outbox where channel = 'webhook:dead'`,
      ),
    );
    expect(owed!.pending).toBe(8);
    expect(owed!.attempts).toBe(1);

    const second = await nightly();
    expect(second.steps.find((s) => s.step === 'alerts')?.detail).toMatch(/still owed: webhook:dead/);
    expect(second.exitCode).toBe(3);
    // two whole nightly jobs (sync, report, alerts): 22 s in a whole-suite run, 72 s and over 120 s at load 10–12
  }, 300_000);
});
