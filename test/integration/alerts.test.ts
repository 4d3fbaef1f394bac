// Alerts on simulator data, synced over real HTTP into a real DuckDB file: the planted spike, waste and a budget
// below the forecast fire; a second run is quiet; conditions that clear send "resolved"; a webhook receives signed
// payloads, is retried after a 500, and a receiver that keeps failing is recorded while the other channels deliver.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runAlerts, type AlertEvent } from '../../src/alert/index.ts';
import { parseConfig } from '../../src/config/load.ts';
import type { ConfigInput } from '../../src/config/schema.ts';
import { openStore } from '../../src/store/database.ts';
import { readSqlFile } from '../../src/transform/sql-files.ts';
import { gpuledger } from '../helpers/cli.ts';
import { flatten, parseMime, startSmtp } from '../helpers/smtp.ts';
import { NOW, smallSyncConfig, syncOnce } from '../helpers/sync.ts';
import { closeServer, listenOnLoopback } from '../helpers/loopback.ts';
import { simulatedAccount } from '../helpers/simulated-account.ts';
import { suiteFixture } from '../helpers/suite-fixture.ts';

const DAY = 86_400_000;

class Collect extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, cb: () => void) {
    this.text += chunk.toString();
    cb();
  }
}

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A webhook receiver on 127.0.0.1 that answers the first `failFirst` POSTs with 500 (every POST with failAlways). */
async function receiver(options: { failFirst?: number; failAlways?: boolean } = {}) {
  const received: Received[] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      calls += 1;
      if (options.failAlways || calls <= (options.failFirst ?? 0)) {
        res.statusCode = 500;
        res.end('boom');
        return;
      }
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.end('ok');
    });
  });
  const url = `http://127.0.0.1:${await listenOnLoopback(server)}/hook`;
  return { url, received, calls: () => calls, close: () => closeServer(server) };
}

/** The Subject header, its RFC 2047 Q-encoded words decoded (nodemailer encodes the en dash). */
function decodeSubject(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)![1]!;
  return header
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_m, text: string) =>
      Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8'),
    );
}

const keysOf = (events: AlertEvent[], kind: AlertEvent['event']) => events.filter((e) => e.event === kind).map((e) => e.key).sort();

describe('alerts on a synced simulator account', () => {
  const synced = suiteFixture(() =>
    simulatedAccount('gpuledger-alerts-', async ({ sim, tmp }) => {
      // 45 days: the spike (10 days ago) needs its 28-day baseline
      const base = smallSyncConfig(sim, { outDir: tmp.dir });
      base.sync = { ...base.sync, start: 'P45D' };
      const store = await openStore({ path: tmp.db, command: 'test' });
      const r = await syncOnce(store, base);
      expect(r.status).toBe('success');
      const row = await store.one<{ actual: string; forecast: string }>(
        "select sum(month_to_date)::varchar as actual, sum(forecast)::varchar as forecast from rpt_month_forecast where family = 'all'",
      );
      return { base, store, forecast: { actual: Number(row!.actual), forecast: Number(row!.forecast) } };
    }),
  );

  const config = (alerts: ConfigInput['alerts']) => parseConfig({ ...synced.base, alerts }, 'test');

  it('fires the planted spike, the waste and a budget below the forecast, once, to stdout and the NDJSON file', async () => {
    expect(synced.forecast.forecast).toBeGreaterThan(synced.forecast.actual * 1.05);
    const budget = ((synced.forecast.actual + synced.forecast.forecast) / 2).toFixed(2);
    const out = new Collect();
    const cfg = config({ budgets: [{ name: 'account', amount: budget, thresholds: [100] }] });
    // firing under the key of an older gpuledger, which alerted per series: closed without a "resolved" message
    const oldKey = `anomaly:sim:endpoint:${synced.sim.account.planted.spendSpike.id}`;
    await synced.store.run(
      `insert into _meta_alert_state values ($1, 'anomaly', 'sim', 'firing', 3, 'critical', 'Spend anomaly: endpoint sdxl-image-api', now(), now(), now(), null, '{}')`,
      [oldKey],
    );
    const result = await runAlerts({ store: synced.store, config: cfg, outDir: synced.tmp.dir, stdout: out });
    expect((await synced.store.one<{ status: string }>(`select status from _meta_alert_state where alert_key = $1`, [oldKey]))!.status).toBe('resolved');
    expect(result.failedRules).toEqual([]);
    expect(result.failedChannels).toEqual([]);

    // the spike and the cluster start: one incident each, naming every series it shows in and the resource driving it
    const spike = synced.sim.account.planted.spendSpike;
    const spikeDay = spike.day.toISOString().slice(0, 10);
    const anomalies = result.events.filter((e) => e.rule === 'anomaly');
    expect(anomalies).toHaveLength(2);
    const spikeIncident = anomalies.find((e) => e.key === `anomaly:sim:driver:serverless:${spike.id}`)!;
    expect(spikeIncident.details).toMatchObject({ dimension: 'endpoint', series_name: spike.name, day: spikeDay });
    const seriesOf = (e: AlertEvent) => (e.details.series as { dimension: string; series_name: string; day: string }[]).map((x) => `${x.dimension} ${x.series_name} ${x.day}`);
    expect(seriesOf(spikeIncident)).toEqual(expect.arrayContaining([`endpoint ${spike.name} ${spikeDay}`, `template worker-sdxl ${spikeDay}`]));
    expect(spikeIncident.message).toContain(`driven by ${spike.name} +$`);
    for (const x of seriesOf(spikeIncident)) expect(spikeIncident.message).toContain(x.split(' ').slice(1, -1).join(' '));
    expect(spikeIncident.severity).toBe('critical');
    const cluster = synced.sim.account.planted.cluster;
    const clusterIncident = anomalies.find((e) => e !== spikeIncident)!;
    expect(clusterIncident.key).toBe(`anomaly:sim:driver:cluster:${cluster.id}`);
    expect(clusterIncident.message).toContain(`driven by ${cluster.name} +$`);
    expect(seriesOf(clusterIncident).map((x) => x.split(' ')[0])).toEqual(expect.arrayContaining(['family', 'gpu_type']));

    // waste: the always-on endpoint and the unattached volume
    const waste = result.events.filter((e) => e.rule === 'waste').map((e) => e.key);
    expect(waste).toContain(`waste:idle_min_workers:sim:${synced.sim.account.planted.idleMinWorkersEndpoint.id}`);
    expect(waste).toContain(`waste:unattached_volume:sim:${synced.sim.account.planted.unattachedVolume.id}`);

    // the budget: below the forecast, above the actual → a forecast alert
    const b = result.events.find((e) => e.rule === 'budget');
    expect(b?.details.basis).toBe('forecast');
    expect(b?.title).toMatch(/Budget account: forecast to reach 1\d\d(\.\d)? % \(2026-11\)/);

    expect(result.events.every((e) => e.event === 'fired')).toBe(true);
    for (const e of result.events) expect(out.text).toContain(e.title);
    expect(out.text).toContain('[SIMULATED]');
    const lines = readFileSync(join(synced.tmp.dir, 'alerts.ndjson'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.alert_key).sort()).toEqual(result.events.map((e) => e.key).sort());
    expect(lines.every((l) => l.simulated === true && l.source === 'gpuledger')).toBe(true);
    const state = await synced.store.one<{ n: number }>("select count(*)::integer as n from _meta_alert_state where status = 'firing'");
    expect(state!.n).toBe(result.events.length);
    const deliveries = await synced.store.one<{ n: number }>("select count(*)::integer as n from _meta_alert_deliveries where status = 'sent'");
    expect(deliveries!.n).toBe(result.events.length * 2);

    // a second run at the same moment: nothing new
    const again = await runAlerts({ store: synced.store, config: cfg, outDir: synced.tmp.dir, stdout: new Collect() });
    expect(again.events).toEqual([]);
    expect(again.conditions.length).toBe(result.conditions.length);
  });

  it("forecasts a budget's own scope as the page forecasts a family: one forecast, not two", async () => {
    // budget_spend.sql (a scoped or weekly budget) against rpt_month_forecast, for every account and family the page
    // shows: the same series, so the same figure to the cent
    const page = await synced.store.all<{ account: string; family: string; month_to_date: string; forecast: string | null }>(
      "select account, family, month_to_date::decimal(18,2)::varchar as month_to_date, round(forecast, 2)::decimal(18,2)::varchar as forecast from rpt_month_forecast where family <> 'all' order by all",
    );
    expect(page.length).toBeGreaterThan(1);
    for (const p of page) {
      const [alert] = await synced.store.all<{ actual: string; forecast: string | null }>(readSqlFile('alerts', 'budget_spend'), {
        period: 'month', account: p.account, family: p.family, template: null, endpoint: null, gpu_type: null, category: null, value: null,
      });
      expect({ account: p.account, family: p.family, actual: alert!.actual, forecast: alert!.forecast })
        .toEqual({ account: p.account, family: p.family, actual: p.month_to_date, forecast: p.forecast });
    }
  });

  it('escalates when the spend crosses a higher threshold, and resolves when the condition clears', async () => {
    // the same budget, now with the actual spend above 50 %: the actual crossing ranks above the forecast one
    const budget = ((synced.forecast.actual + synced.forecast.forecast) / 2).toFixed(2);
    const escalated = await runAlerts({
      store: synced.store,
      config: config({ budgets: [{ name: 'account', amount: budget, thresholds: [50, 100] }] }),
      outDir: synced.tmp.dir,
      stdout: new Collect(),
    });
    expect(escalated.events.map((e) => `${e.event} ${e.rule}`)).toEqual(['escalated budget']);
    // a budget far above the forecast, and no waste rule threshold anyone reaches: both resolve, nothing else moves
    const cleared = await runAlerts({
      store: synced.store,
      config: config({ budgets: [{ name: 'account', amount: (synced.forecast.forecast * 10).toFixed(2) }], waste: { minMonthlyCost: 100_000 } }),
      outDir: synced.tmp.dir,
      stdout: new Collect(),
    });
    expect(new Set(cleared.events.map((e) => e.event))).toEqual(new Set(['resolved']));
    expect(new Set(cleared.events.map((e) => e.rule))).toEqual(new Set(['budget', 'waste']));
    // the budget says why it cleared: the forecast fell back, to what, under which threshold
    expect(cleared.events.find((e) => e.rule === 'budget')!.message).toMatch(
      /^No longer true as of .*: Budget account: .*\. As of \d{4}-\d{2}-\d{2} the forecast fell back to \$[\d,.]+ \(\d+\.\d %(; likely at least \$[\d,.]+, \d+\.\d %)?\), below the \d+ % threshold of the \$[\d,.]+ monthly budget\.$/,
    );
    const open = await synced.store.all<{ rule: string }>("select distinct rule from _meta_alert_state where status = 'firing' order by 1");
    expect(open.map((r) => r.rule)).toEqual(['anomaly']);
  });

  it('resolves the spike once it leaves the window, after the clock moves on and the next sync', async () => {
    synced.sim.setNow(new Date(Date.parse(NOW) + 16 * DAY));
    const r = await syncOnce(synced.store, synced.base);
    expect(r.status).toBe('success');
    const result = await runAlerts({ store: synced.store, config: config({ waste: { minMonthlyCost: 100_000 } }), outDir: synced.tmp.dir, stdout: new Collect() });
    const spikeSeries = keysOf(result.events, 'resolved').filter((k) => k.includes(synced.sim.account.planted.spendSpike.id));
    expect(spikeSeries).toEqual([`anomaly:sim:driver:serverless:${synced.sim.account.planted.spendSpike.id}`]);
    expect(result.events.find((e) => e.key === spikeSeries[0])?.title).toMatch(/^Resolved: Spend anomaly: endpoint sdxl-image-api .* – also template worker-sdxl/);
  }, 120_000);

  it('--dry-run prints what would be sent and changes no state', async () => {
    const before = await synced.store.all('select * from _meta_alert_state order by alert_key');
    const out = new Collect();
    const result = await runAlerts({
      store: synced.store,
      config: config({ budgets: [{ name: 'dry', amount: '1.00' }] }),
      outDir: synced.tmp.dir,
      dryRun: true,
      stdout: out,
    });
    // the clock moved to December in the test before: the budget is December's
    expect(result.events.filter((e) => e.rule === 'budget').map((e) => e.key)).toEqual(['budget:dry:*:2026-12-01']);
    expect(out.text).toMatch(/^would send: ALERT +critical +\[SIMULATED\] Budget dry: /m);
    expect(await synced.store.all('select * from _meta_alert_state order by alert_key')).toEqual(before);
  });

  it('--as-of --with-restatements back-tests the rules at a past moment: the spike is seen the day after it, not the day before', async () => {
    const spike = synced.sim.account.planted.spendSpike;
    // the history was loaded after the simulated moments (at wall-clock time), so "as loaded then" would see nothing:
    // back-testing on history loaded later is what --with-restatements (the data as loaded now) is for
    const at = (ms: number) =>
      runAlerts({ store: synced.store, config: config({}), outDir: synced.tmp.dir, dryRun: true, stdout: new Collect(), asOf: new Date(ms), withRestatements: true });
    const endpointAnomaly = (found: { key: string; details: Record<string, unknown> }[]) => found.find((e) => e.key === `anomaly:sim:driver:serverless:${spike.id}`);
    const before = await at(spike.day.getTime() - 6 * 3_600_000);
    expect(before.asOf.toISOString()).toBe(new Date(spike.day.getTime() - 6 * 3_600_000).toISOString());
    expect(endpointAnomaly(before.conditions)).toBeUndefined();
    const after = await at(spike.day.getTime() + DAY + 6 * 3_600_000);
    expect(endpointAnomaly(after.conditions)?.details.day).toBe(spike.day.toISOString().slice(0, 10));
  });

  it('back-tested near the start of the data, calls nothing new spend: the days without a baseline are not scored, and the dry run says why', async () => {
    const first = (await synced.store.one<{ d: string }>(`select min(loaded_from)::date::varchar as d from _meta_watermarks where source <> 'inventory'`))!.d;
    const out = new Collect();
    // three days after the first synced day: before this change every family looked like new spend then
    const asOf = new Date(Date.parse(`${first}T00:00:00Z`) + 3 * DAY + 6 * 3_600_000);
    const result = await runAlerts({ store: synced.store, config: config({}), outDir: synced.tmp.dir, dryRun: true, stdout: out, asOf, withRestatements: true });
    expect(result.conditions.filter((c) => c.rule === 'anomaly')).toEqual([]);
    expect(out.text).toMatch(new RegExp(`not scored: anomaly: sim: 14 of the last 14 days are not scored, having fewer than 5 like days .*sim's synced billing starts on ${first}`));
  });

  it('emails one message with every event through a real SMTP server', async () => {
    const smtp = await startSmtp();
    try {
      const cfg = parseConfig(
        {
          ...synced.base,
          smtp: { host: '127.0.0.1', port: smtp.port, from: 'gpuledger <alerts@example.com>' },
          alerts: { budgets: [{ name: 'mail', amount: '2.00' }], channels: [{ type: 'email', to: ['oncall@example.com'], minSeverity: 'critical' }] },
        },
        'test',
      );
      const result = await runAlerts({ store: synced.store, config: cfg, outDir: synced.tmp.dir });
      expect(result.failedChannels).toEqual([]);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual(['oncall@example.com']);
      const subject = decodeSubject(smtp.received[0]!.raw.toString());
      expect(subject).toMatch(/^\[SIMULATED DATA\] gpuledger: \d+ alerts? – Budget mail: /);
      const critical = result.events.filter((e) => e.severity === 'critical');
      expect(critical.length).toBeGreaterThan(0);
      const text = flatten(parseMime(smtp.received[0]!.raw)).find((p) => p.contentType.startsWith('text/plain'))!.body.toString();
      for (const e of critical) expect(text).toContain(e.title);
      for (const e of result.events.filter((x) => x.severity !== 'critical')) expect(text).not.toContain(e.title);
    } finally {
      await smtp.close();
    }
  });

  it('gpuledger alerts refuses a bad --as-of with one line and exit 2', async () => {
    const r = await gpuledger(['--db', synced.tmp.db, 'alerts', '--as-of', '2026-11-31']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/--as-of must be an RFC 3339 date-time/);
  });
});

describe('the webhook channel', () => {
  const synced = suiteFixture(() =>
    simulatedAccount('gpuledger-webhook-', async ({ sim, tmp }) => {
      const base = smallSyncConfig(sim, { outDir: tmp.dir });
      const store = await openStore({ path: tmp.db, command: 'test' });
      await syncOnce(store, base);
      return { base, store };
    }),
  );

  it('posts signed JSON, retries after a 500, and records a receiver that keeps failing while the others deliver', async () => {
    const good = await receiver({ failFirst: 1 });
    const bad = await receiver({ failAlways: true });
    const secret = 'whsec-test-0123456789';
    try {
      const cfg = parseConfig(
        {
          ...synced.base,
          alerts: {
            anomaly: { enabled: false },
            dataQuality: { enabled: false },
            budgets: [{ name: 'tiny', amount: '1.00' }],
            channels: [
              { type: 'webhook', name: 'good', url: good.url, secretEnv: 'TEST_WEBHOOK_SECRET', retryDelayMs: 10 },
              { type: 'webhook', name: 'bad', url: bad.url, format: 'slack', attempts: 3, retryDelayMs: 10 },
              { type: 'file' },
            ],
          },
        },
        'test',
      );
      const result = await runAlerts({ store: synced.store, config: cfg, outDir: synced.tmp.dir, env: { TEST_WEBHOOK_SECRET: secret } });
      const n = result.events.length;
      expect(n).toBeGreaterThan(1);
      // good: the first POST got a 500 and was retried; every event arrived once, signed
      expect(good.calls()).toBe(n + 1);
      expect(good.received).toHaveLength(n);
      for (const r of good.received) {
        const expected = createHmac('sha256', secret).update(`${r.headers['x-gpuledger-timestamp']}.${r.body}`).digest('hex');
        expect(r.headers['x-gpuledger-signature']).toBe(`sha256=${expected}`);
        const payload = JSON.parse(r.body);
        expect(payload.source).toBe('gpuledger');
        expect(r.headers['x-gpuledger-event-id']).toBe(payload.event_id);
        expect(r.body).not.toContain(secret);
      }
      expect(good.received.map((r) => JSON.parse(r.body).alert_key).sort()).toEqual(result.events.map((e) => e.key).sort());
      // bad: three tries per event, then recorded as failed, and reported
      expect(bad.calls()).toBe(3 * n);
      expect(result.failedChannels).toEqual([{ channel: expect.stringMatching(/^webhook:bad$/), error: expect.stringMatching(/HTTP 500 after 3 attempt/) }]);
      const rows = await synced.store.all<{ channel: string; status: string; n: number }>(
        'select channel, status, count(*)::integer as n from _meta_alert_deliveries group by all order by 1, 2',
      );
      expect(rows).toEqual([
        { channel: `file:${join(synced.tmp.dir, 'alerts.ndjson')}`, status: 'sent', n },
        { channel: 'webhook:bad', status: 'failed', n },
        { channel: 'webhook:good', status: 'sent', n },
      ]);
    } finally {
      await good.close();
      await bad.close();
    }
  });

  it('refuses a signing secret that is not set, before evaluating anything', async () => {
    const cfg = parseConfig(
      { ...synced.base, alerts: { channels: [{ type: 'webhook', url: 'http://127.0.0.1:9/hook', secretEnv: 'UNSET_WEBHOOK_SECRET' }] } },
      'test',
    );
    await expect(runAlerts({ store: synced.store, config: cfg, outDir: synced.tmp.dir, env: {} })).rejects.toThrow(
      /webhook '127.0.0.1:9' signs with the secret in UNSET_WEBHOOK_SECRET, but that environment variable is empty/,
    );
  });
});
