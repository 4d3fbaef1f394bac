// Given an account's billing → expect the anomaly rule to know its habits (sql/alerts/anomaly_days.sql through the
// rule and the alert state, on a real DuckDB file): a training template that runs a job of the usual size every week
// pages nothing, a job 5× the usual size pages, a job that does not stop pages within 2 days of outrunning its usual
// length, a new template on the H100s pages critical, a level shift pages once and stays one incident while the
// baseline adapts, one more step of a fleet grown by steps pages nothing (ten like pods at once do), and a $40 wobble
// on a $5,000/day account does not page critical. The message says what the day was
// compared with, and its explorer link opens that comparison.
import { describe, expect, it } from 'vitest';
import { seriesAnomalies, evaluateAnomalies } from '../../src/alert/rules/anomaly.ts';
import { persistPlan, planEvents } from '../../src/alert/state.ts';
import type { Condition } from '../../src/alert/types.ts';
import { anomalyRuleSchema } from '../../src/config/alerts.ts';
import { parseConfig } from '../../src/config/load.ts';
import { exploreAnswer } from '../../src/explore/run-explore.ts';
import { parseExploreRequest } from '../../src/explore/request.ts';
import type { Store } from '../../src/store/database.ts';
import { readSqlFile } from '../../src/transform/sql-files.ts';
import { addInventory, billPods, setWatermark, viewStore } from '../helpers/view-store.ts';

const DAY = 86_400_000;
const rule = anomalyRuleSchema.parse({});
const FIRST = '2026-06-01';

const dayAt = (first: string, i: number) => new Date(Date.parse(`${first}T00:00:00Z`) + i * DAY).toISOString().slice(0, 10);
const span = (from: string, to: string) => {
  const out: string[] = [];
  for (let d = from; d <= to; d = dayAt(d, 1)) out.push(d);
  return out;
};

interface Pod {
  id: string;
  /** null: a pod of a custom image, no template. */
  template: string | null;
  gpu: string;
  /** Day → USD. */
  spend: Record<string, number>;
}

const steady = (from: string, to: string, amount: number | ((i: number) => number)) =>
  Object.fromEntries(span(from, to).map((d, i) => [d, typeof amount === 'number' ? amount : amount(i)]));

/** Two-day jobs every 7 days from FIRST until `until`, each its own pod, $90, $95 or $100 a day: the account's habit. */
function trainingJobs(until: string, except: number[] = []): Pod[] {
  const jobs: Pod[] = [];
  for (let n = 0; ; n += 1) {
    const start = dayAt(FIRST, 7 * n + 2);
    if (start > until) return jobs;
    if (except.includes(n)) continue;
    const amount = [90, 95, 100][n % 3]!;
    jobs.push({ id: `job-${String(n).padStart(2, '0')}`, template: 'tpl-train', gpu: 'h100', spend: { [start]: amount, [dayAt(start, 1)]: amount } });
  }
}

async function givenAccount(pods: Pod[], through = '2026-09-30'): Promise<Store> {
  const store = await viewStore();
  await addInventory(store, [
    { kind: 'gpu_type', id: 'h100', doc: { name: 'H100 80GB HBM3', pool: 'HOPPER_80', price: { secure: 2.99, community: 2.69, serverless: 4.18 } } },
    { kind: 'gpu_type', id: 'a4000', doc: { name: 'RTX A4000', pool: 'AMPERE_16', price: { secure: 0.25, community: 0.17, serverless: 0.58 } } },
    { kind: 'template', id: 'tpl-train', doc: { name: 'llm-finetune', image: 'train:1' } },
    { kind: 'template', id: 'tpl-serve', doc: { name: 'api-serve', image: 'serve:1' } },
    { kind: 'template', id: 'tpl-new', doc: { name: 'pretrain-70b', image: 'pretrain:1' } },
    { kind: 'template', id: 'tpl-small', doc: { name: 'notebooks', image: 'jupyter:1' } },
    ...pods.map((p) => ({ kind: 'pod' as const, id: p.id, doc: { name: p.id, gpu: { id: p.gpu, count: 1 }, template: p.template, image: 'x', status: 'RUNNING' } })),
  ]);
  await billPods(store, pods.flatMap((p) => Object.entries(p.spend).map(([day, usd]) => ({ pod: p.id, start: `${day}T00:00:00Z`, gpu: usd.toFixed(6) }))));
  await setWatermark(store, { source: 'pods', size: 'day', from: `${FIRST}T00:00:00Z`, through: `${through}T00:00:00Z` });
  return store;
}

/** The rule as of 06:00 UTC on `day` (its window: the 14 complete days before). */
async function at<T>(store: Store, day: string, run: () => Promise<T>): Promise<T> {
  await store.run(`set variable gpuledger_as_of = $1::timestamptz`, [`${day}T06:00:00Z`]);
  try {
    return await run();
  } finally {
    await store.run('reset variable gpuledger_as_of');
  }
}

const fleet = (amount = 300): Pod => ({ id: 'fleet-1', template: 'tpl-serve', gpu: 'a4000', spend: steady(FIRST, '2026-09-30', amount) });

async function withStore<T>(pods: Pod[], check: (store: Store) => Promise<T>): Promise<T> {
  const store = await givenAccount(pods);
  try {
    return await check(store);
  } finally {
    await store.close();
  }
}

describe('anomalies that know the account habits', () => {
  it('pages nothing for a cadence of jobs of the usual size, whatever day it is judged on', async () => {
    await withStore([fleet(), ...trainingJobs('2026-09-20')], async (store) => {
      for (const day of ['2026-08-17', '2026-08-24', '2026-08-31', '2026-09-07', '2026-09-14']) {
        expect(await at(store, day, () => evaluateAnomalies(store, rule)), `as of ${day}`).toEqual([]);
      }
    });
  }, 180_000);

  it('pages nothing when the jobs share their GPU type with an always-on fleet: a job day is a rise that GPU type has every week', async () => {
    // the A4000s: a $100/day fleet pod, and every job's $90–100 days on top – twice its median, 9.5 robust deviations out
    const jobs = trainingJobs('2026-09-20').map((j) => ({ ...j, gpu: 'a4000' }));
    await withStore([fleet(100), ...jobs], async (store) => {
      for (const day of ['2026-08-24', '2026-08-31']) {
        expect(await at(store, day, () => evaluateAnomalies(store, rule)), `as of ${day}`).toEqual([]);
      }
      // a job 5× the usual on them still pages, there and on its template
      const big: Pod = { id: 'job-big', template: 'tpl-train', gpu: 'a4000', spend: { '2026-09-02': 475 } };
      await addInventory(store, [{ kind: 'pod', id: big.id, doc: { name: big.id, gpu: { id: 'a4000', count: 1 }, template: 'tpl-train', image: 'x', status: 'RUNNING' } }]);
      await billPods(store, [{ pod: big.id, start: '2026-09-02T00:00:00Z', gpu: '475.000000' }]);
      const found = await at(store, '2026-09-03', () => seriesAnomalies(store, rule));
      expect(found.map((s) => `${s.dimension} ${s.worst.kind}`).sort()).toEqual(['family departure', 'gpu_type departure', 'template size']);
    });
  }, 180_000);

  it('pages nothing for a monthly job on a GPU type whose fleet has grown since its last runs: one more job like them, however the level moved', async () => {
    // the A4000 fleet grows $2 a day; a month-close job of a custom image (no template) runs on the 1st for $180: on
    // 1 September it is 207 above the series' median, and its July and August runs were less far above it – the
    // level rose under them – so the series alone saw a departure no rise before had matched
    const grower: Pod = { id: 'fleet-1', template: 'tpl-serve', gpu: 'a4000', spend: steady(FIRST, '2026-09-30', (i) => 100 + 2 * i) };
    const monthClose = ['06', '07', '08', '09'].map((m): Pod => ({ id: `month-close-${m}`, template: null, gpu: 'a4000', spend: { [`2026-${m}-01`]: 180 } }));
    await withStore([grower, ...monthClose], async (store) => {
      expect(await at(store, '2026-09-02', () => evaluateAnomalies(store, rule))).toEqual([]);
      // the same job on four times the GPUs is no routine run
      await addInventory(store, [{ kind: 'pod', id: 'month-close-big', doc: { name: 'month-close-big', gpu: { id: 'a4000', count: 4 }, template: null, image: 'x', status: 'RUNNING' } }]);
      await billPods(store, [{ pod: 'month-close-big', start: '2026-09-01T00:00:00Z', gpu: '720.000000' }]);
      expect((await at(store, '2026-09-02', () => evaluateAnomalies(store, rule))).map((c) => c.key)).toEqual(['anomaly:acme:driver:pod:month-close-big']);
    });
  }, 180_000);

  it('pages a job 5× the usual size on the same template, critical, saying what it was compared with and linking the explorer to it', async () => {
    const jobs = trainingJobs('2026-09-20', [12]);
    // job 12's slot (2026-08-26): five times the pods' usual day
    const big: Pod = { id: 'job-big', template: 'tpl-train', gpu: 'h100', spend: { '2026-08-26': 475, '2026-08-27': 475 } };
    await withStore([fleet(), ...jobs, big], async (store) => {
      const found = await at(store, '2026-08-27', () => evaluateAnomalies(store, rule));
      expect(found.map((c) => c.key)).toEqual(['anomaly:acme:driver:pod:job-big']);
      const [c] = found as [Condition];
      expect(c.severity).toBe('critical');
      expect(c.title).toBe('Unusual job: template llm-finetune spent $475.00 on 2026-08-26 (5× its typical active day) – also GPU type H100 80GB HBM3, family pod');
      // 12 jobs since 2026-06-03, two days each at $90, $95 or $100: the median active day is $95
      expect(c.message).toContain(
        'template llm-finetune spent $475.00 on 2026-08-26 against $95.00 on a typical active day of its last 12 jobs (since 2026-06-03, 84 days before): 5× its usual day',
      );
      expect(c.message).toContain('$380.00 above what was expected that day');
      const href = c.details.explore as string;
      expect(href).toBe('/explore?from=2026-06-03&to=2026-08-26&granularity=day&by=resource&filter=account%3Aacme&filter=template%3Allm-finetune');
      expect(c.message.endsWith(`In the explorer: ${href}`)).toBe(true);
      // the link is one /explore accepts: the series on the account, by resource, over the days compared
      const request = parseExploreRequest(new URL(href, 'http://localhost').searchParams, '2026-08-27');
      expect(request).toMatchObject({ from: '2026-06-03', to: '2026-08-26', granularity: 'day', by: [{ kind: 'plain', name: 'resource' }] });
      expect(request.filters.map((f) => `${f.dimension.kind === 'plain' ? f.dimension.name : ''}:${f.value}`)).toEqual(['account:acme', 'template:llm-finetune']);
      // and in it the figures the message names: the big job's $475 on its day, the usual jobs' $95 days before
      const answer = await exploreAnswer(store, parseConfig({ accounts: [{ name: 'acme', apiKeyEnv: 'ACME_KEY' }] }, 'test'), request);
      const cell = (resource: string, day: string) => answer.table.groups.find((g) => g.keys[0] === resource)?.cells[answer.table.periods.indexOf(day)];
      expect(cell('job-big', '2026-08-26')).toBe('475.000000');
      expect(cell('job-10', '2026-08-12')).toBe('95.000000');
    });
  }, 180_000);

  it('anomaly_days.sql: a 5× job is a size departure of the template and the GPU type against their past jobs, and a departure of the family against its median', async () => {
    const big: Pod = { id: 'job-big', template: 'tpl-train', gpu: 'h100', spend: { '2026-08-26': 475, '2026-08-27': 475 } };
    await withStore([fleet(), ...trainingJobs('2026-09-20', [12]), big], async (store) => {
      const rows = await at(store, '2026-08-28', () =>
        store.all(
          `select dimension, series_id, day::varchar as day, kind, expected::varchar as expected, excess::varchar as excess, episode_start::varchar as episode_start,
                  episode_days, episode_total::varchar as episode_total, past_episodes, first_episode_start::varchar as first_episode_start,
                  typical_total::varchar as typical_total, typical_length, longest_episode, account_typical::varchar as account_typical
           from (${readSqlFile('alerts', 'anomaly_days').replace(/;\s*$/, '')})`,
          {
            baseline_days: 28, window_days: 14, weekday_aware: true, threshold: 5, min_cost: '25.00',
            history_days: 90, recurring_episodes: 2, episode_ratio: 3, min_share_pct: 2,
          },
        ),
      );
      const job = { kind: 'size', expected: '95.00', episode_start: '2026-08-26', past_episodes: 12, first_episode_start: '2026-06-03', typical_total: '190.00', typical_length: 2, longest_episode: 2 };
      expect(rows).toEqual([
        // the fleet's $300 on every day of the 28 before: its day is the account's typical one
        expect.objectContaining({ dimension: 'family', series_id: 'pod', day: '2026-08-26', kind: 'departure', expected: '300.00', excess: '475.00', account_typical: '300.00' }),
        expect.objectContaining({ dimension: 'family', series_id: 'pod', day: '2026-08-27', kind: 'departure', expected: '300.00', excess: '475.00' }),
        expect.objectContaining({ dimension: 'gpu_type', series_id: 'h100', day: '2026-08-26', ...job, excess: '380.00', episode_days: 1, episode_total: '475.00' }),
        expect.objectContaining({ dimension: 'gpu_type', series_id: 'h100', day: '2026-08-27', ...job, excess: '380.00', episode_days: 2, episode_total: '950.00' }),
        expect.objectContaining({ dimension: 'template', series_id: 'tpl-train', day: '2026-08-26', ...job, excess: '380.00', episode_days: 1, episode_total: '475.00' }),
        expect.objectContaining({ dimension: 'template', series_id: 'tpl-train', day: '2026-08-27', ...job, excess: '380.00', episode_days: 2, episode_total: '950.00' }),
      ]);
    });
  }, 180_000);

  it('pages a job left running within 2 days of outrunning its usual two days, and not before', async () => {
    const jobs = trainingJobs('2026-09-20', [12]);
    const left: Pod = { id: 'job-left-on', template: 'tpl-train', gpu: 'h100', spend: steady('2026-08-26', '2026-09-10', 95) };
    await withStore([fleet(), ...jobs, left], async (store) => {
      // 08-26 and 08-27 are its usual two days; from 08-28 on it should have stopped
      expect(await at(store, '2026-08-28', () => evaluateAnomalies(store, rule))).toEqual([]);
      const found = await at(store, '2026-08-30', () => evaluateAnomalies(store, rule));
      const c = found.find((x) => x.key === 'anomaly:acme:driver:pod:job-left-on');
      expect(c?.title).toMatch(/^Job not stopping: template llm-finetune has spent every day since 2026-08-26 \(\$\d+\.\d\d in \d days\)/);
      expect(c?.message).toContain('against a typical job of $190.00 over 2 days among its last 12 jobs (since 2026-06-03');
      expect(c?.message).toContain('the longest 2 days: longer than any of them, and still spending');
    });
  }, 180_000);

  it('pages a new template on the H100s critical: new spend, though the GPU type runs jobs every week', async () => {
    const jobs = trainingJobs('2026-09-20');
    const pretrain: Pod = { id: 'pretrain-1', template: 'tpl-new', gpu: 'h100', spend: steady('2026-08-30', '2026-09-10', 800) };
    await withStore([fleet(), ...jobs, pretrain], async (store) => {
      const found = await at(store, '2026-08-31', () => evaluateAnomalies(store, rule));
      expect(found.map((c) => c.key)).toEqual(['anomaly:acme:driver:pod:pretrain-1']);
      const [c] = found as [Condition];
      expect(c.severity).toBe('critical');
      expect(c.title).toMatch(/^New spend: template pretrain-70b spent \$800\.00 on 2026-08-30, nothing on most days before – also GPU type H100 80GB HBM3/);
      expect(c.message).toContain('template pretrain-70b spent $800.00 on 2026-08-30, where it had spent nothing on most of the');
    });
  }, 180_000);

  it('pages a level shift once, and it stays one incident over the next 10 days while its baseline adapts', async () => {
    // two more serving pods from 2026-08-10: one at $320 a day, one noisier (now and then the day's biggest)
    const noisy = (i: number) => (i % 2 === 1 ? 290 : [300, 330, 340, 350, 360, 370, 380, 390][Math.min(7, i / 2)]!);
    const shift: Pod[] = [
      { id: 'fleet-2', template: 'tpl-serve', gpu: 'a4000', spend: steady('2026-08-10', '2026-09-30', 320) },
      { id: 'fleet-3', template: 'tpl-serve', gpu: 'a4000', spend: steady('2026-08-10', '2026-09-30', noisy) },
    ];
    await withStore([fleet(), ...shift], async (store) => {
      const fired: string[] = [];
      const resolved: string[] = [];
      for (const day of span('2026-08-11', '2026-08-21')) {
        const asOf = new Date(`${day}T06:00:00Z`);
        const conditions = await at(store, day, () => evaluateAnomalies(store, rule));
        const plan = await planEvents(store, conditions, new Set(['anomaly']), asOf, asOf);
        await persistPlan(store, plan, conditions, [], asOf);
        fired.push(...plan.events.filter((e) => e.event === 'fired').map((e) => `${day} ${e.key}`));
        resolved.push(...plan.events.filter((e) => e.event === 'resolved').map((e) => `${day} ${e.key}`));
        // two pods of like cost: no resource carries two thirds of the rise, so it is one incident of its narrowest
        // series, whichever pod leads on the day
        expect(conditions.map((c) => c.key), `as of ${day}`).toEqual(['anomaly:acme:template:tpl-serve']);
      }
      expect(fired).toEqual(['2026-08-11 anomaly:acme:template:tpl-serve']);
      expect(resolved).toEqual([]);
    });
  }, 180_000);

  it('pages nothing for one more step of a fleet that has grown by steps before, up to twice its biggest step, and pages more like pods at once or a new kind', async () => {
    // the account has grown its always-on pods by two at a time (06-17 and 07-12, each ran every day since); in
    // September its serving template, one pod since the first day, gets two more like it: three times its day
    const pod = (id: string, from: string, usd: number, template = 'tpl-serve', gpu = 'a4000'): Pod => ({ id, template, gpu, spend: steady(from, '2026-09-30', usd) });
    const grown = [
      pod('serve-1', FIRST, 60),
      ...['06-17', '07-12'].flatMap((d) => [1, 2].map((n) => pod(`batch-${d}-${n}`, `2026-${d}`, 200, 'tpl-small', 'h100'))),
    ];
    const keys = async (pods: Pod[]) => withStore(pods, async (store) => (await at(store, '2026-09-12', () => evaluateAnomalies(store, rule))).map((c) => c.key));
    expect(await keys([...grown, pod('serve-2', '2026-09-10', 60), pod('serve-3', '2026-09-10', 60)])).toEqual([]);
    // four at once: twice its biggest step, still its growth (steps vary); five are more than that
    const like = (n: number) => Array.from({ length: n }, (_, i) => pod(`serve-n${i}`, '2026-09-10', 60));
    expect(await keys([...grown, ...like(4)])).toEqual([]);
    expect(await keys([...grown, ...like(5)])).toEqual(['anomaly:acme:template:tpl-serve']);
    // ten at once: far more than the account has ever added on one day
    const ten = Array.from({ length: 10 }, (_, i) => pod(`replica-${i}`, '2026-09-10', 60));
    expect(await keys([...grown, ...ten])).toEqual(['anomaly:acme:template:tpl-serve']);
    // one pod of the fleet's template at ten times a fleet pod's day: no fleet pod (a pretraining cluster is not one)
    expect(await keys([...grown, pod('big-1', '2026-09-10', 600)])).toEqual(['anomaly:acme:driver:pod:big-1']);
    // two pods of a kind the account never ran every day: a new workload, however the fleet grew
    expect(await keys([...grown, pod('new-1', '2026-09-10', 60, 'tpl-new', 'h100'), pod('new-2', '2026-09-10', 60, 'tpl-new', 'h100')])).toEqual([
      'anomaly:acme:template:tpl-new',
    ]);
  }, 180_000);

  it('does not page critical for a $40 wobble on a $5,000/day account: under 2 % of its day it is no page at all', async () => {
    const big: Pod[] = [1, 2, 3, 4, 5].map((n) => ({ id: `fleet-${n}`, template: 'tpl-serve', gpu: 'a4000', spend: steady(FIRST, '2026-09-30', 1000) }));
    const notebooks: Pod = { id: 'nb-1', template: 'tpl-small', gpu: 'a4000', spend: steady(FIRST, '2026-09-30', (i) => (i === 90 ? 60 : 20)) };
    expect(dayAt(FIRST, 90)).toBe('2026-08-30');
    await withStore([...big, notebooks], async (store) => {
      expect(await at(store, '2026-08-31', () => evaluateAnomalies(store, rule))).toEqual([]);
      // with no share asked for it pages, as a warning: $40 is 0.8 % of the account's day
      const loose = anomalyRuleSchema.parse({ minSharePct: 0 });
      const found = await at(store, '2026-08-31', () => evaluateAnomalies(store, loose));
      expect(found.map((c) => `${c.key} ${c.severity}`)).toEqual(['anomaly:acme:driver:pod:nb-1 warning']);
      expect(found[0]!.message).toContain("$40.00 above what was expected that day: 0.8 % of acme's typical day ($5,020.00)");
      const series = await at(store, '2026-08-31', () => seriesAnomalies(store, loose));
      expect(series.map((s) => `${s.dimension} ${s.worst.kind} ${s.worst.day} ${s.worst.expected}`)).toEqual(['template departure 2026-08-30 20.00']);
    });
  }, 180_000);
});
