// Given anomalous series → expect incidents: series whose biggest driver is the same resource are one incident (its
// key names the resource, its severity is the highest, its message names every series and the drivers they share);
// a series driven mostly by another resource stays its own incident even when it lists the first one among its
// drivers; a series with no driver keeps its per-series key.
import { describe, expect, it } from 'vitest';
import { incidentsOf, type Driver, type SeriesAnomaly } from '../../src/alert/rules/anomaly-incident.ts';
import { anomalyRuleSchema } from '../../src/config/alerts.ts';

const rule = anomalyRuleSchema.parse({});
const driver = (id: string, name: string, excess: string, day = '2026-11-16'): Driver => ({
  family: 'serverless',
  resource_id: id,
  resource_name: name,
  in_narrower_series: true,
  template_id: null,
  gpu_type_id: null,
  fleet_like_share: 0,
  fleet_like_batch: 0,
  fleet_addition_days: 0,
  fleet_batches: 0,
  fleet_largest_batch: 0,
  job_like_share: 0,
  rising_excess: excess,
  job_like: false,
  amount: '0',
  baseline_average: '0',
  excess,
  day,
});
const series = (dimension: string, name: string, level: number, drivers: Driver[], day = '2026-11-16'): SeriesAnomaly => ({
  account: 'acme',
  dimension,
  seriesId: `${dimension}-${name}`,
  name,
  worst: {
    account: 'acme', dimension, series_id: `${dimension}-${name}`, series_name: name, day, amount: '244.17', kind: 'departure', expected: '29.56',
    excess: '214.61', score: 72.6, ratio: '8.3', baseline_median: '29.56', baseline_mad: '1.13', baseline_days: 20, first_covered_day: '2026-09-01',
    episode_start: '2026-09-01', episode_days: 77, episode_total: '2500.00', past_episodes: 0, first_episode_start: null, typical_day: null,
    typical_total: null, typical_length: null, longest_episode: null, account_typical: '1000.00',
  },
  days: [day],
  drivers,
  level,
});

describe('anomaly incidents', () => {
  it('makes one incident of the series one resource drove: named by it, at the highest level, every series in its message', () => {
    const spike = driver('ep1', 'sdxl-image-api', '218.03');
    const found = incidentsOf(
      [
        series('family', 'serverless', 2, [spike, driver('ep2', 'vllm-03', '18.79')]),
        series('gpu_type', 'ADA_24 pool', 1, [spike]),
        series('endpoint', 'sdxl-image-api', 1, [spike]),
        series('template', 'worker-sdxl', 1, [spike]),
      ],
      rule,
    );
    expect(found).toHaveLength(1);
    const [incident] = found;
    expect(incident!.key).toBe('anomaly:acme:driver:serverless:ep1');
    expect(incident!.level).toBe(2);
    expect(incident!.severity).toBe('critical');
    // the narrowest series leads; the drivers are the ones every series shares
    expect(incident!.title).toMatch(/^Spend anomaly: endpoint sdxl-image-api spent \$244\.17 on 2026-11-16 \(8\.3× its typical day\) – also template worker-sdxl, GPU type ADA_24 pool, family serverless$/);
    expect(incident!.message).toMatch(/^One incident in acme, driven by sdxl-image-api \+\$218\.03 \(above their average day, over the anomalous days\); it shows in 4 series: endpoint sdxl-image-api spent/);
    expect(incident!.message).not.toContain('vllm-03');
    // the impact once, for the series that leads, then the explorer link of that series
    expect(incident!.message).toContain(
      "family serverless spent $244.17 on 2026-11-16 against $29.56 on a typical weekday (the median of the 20 weekdays before; MAD $1.13): 72.6 robust standard deviations out. " +
        "endpoint sdxl-image-api: $214.61 above what was expected that day: 21.5 % of acme's typical day ($1,000.00). In the explorer: /explore?from=2026-10-19&to=2026-11-16&granularity=day&by=resource&filter=account%3Aacme&filter=endpoint%3Asdxl-image-api",
    );
    expect((incident!.details.series as { dimension: string }[]).map((s) => s.dimension)).toEqual(['endpoint', 'template', 'gpu_type', 'family']);
    expect(incident!.supersedes).toEqual(['acme:endpoint:endpoint-sdxl-image-api', 'acme:template:template-worker-sdxl', 'acme:gpu_type:gpu_type-ADA_24 pool', 'acme:family:family-serverless'].map((k) => `anomaly:${k}`));
  });

  it('makes a rise spread over several like resources one incident of the series first anomalous (the narrowest of those), whichever of them leads or joins later, and a rise of other resources another', () => {
    // a scale-up of three like pods: the GPU type, the template and the family rise, no pod carries two thirds
    const pods = (lead: string) => ['p1', 'p2', 'p3'].map((id) => driver(id, `pod-${id}`, id === lead ? '60.00' : '55.00'));
    const podDriver = (d: ReturnType<typeof driver>) => ({ ...d, family: 'pod' });
    for (const lead of ['p1', 'p3']) {
      const found = incidentsOf(
        [
          series('gpu_type', 'RTX 4090', 1, pods(lead).map(podDriver)),
          series('template', 'vllm', 1, pods(lead).map(podDriver)),
          series('family', 'pod', 1, pods(lead).map(podDriver)),
        ],
        rule,
      );
      expect(found.map((c) => c.key)).toEqual(['anomaly:acme:template:template-vllm']);
      expect((found[0]!.details.series as unknown[]).length).toBe(3);
    }
    // seen first in its GPU type (the pods' first day was partial), a day later in its template too: the incident
    // keeps the GPU type's key, it is not paged again under the template's
    const gpuFirst = { ...series('gpu_type', 'RTX 4090', 1, pods('p1').map(podDriver)), days: ['2026-11-15', '2026-11-16'] };
    const later = incidentsOf([gpuFirst, series('template', 'vllm', 1, pods('p1').map(podDriver))], rule);
    expect(later.map((c) => c.key)).toEqual(['anomaly:acme:gpu_type:gpu_type-RTX 4090']);
    // other pods rising in the same family (a fleet step on another template) are not this incident
    const others = ['q1', 'q2'].map((id) => podDriver(driver(id, `pod-${id}`, '50.00')));
    const two = incidentsOf([series('template', 'vllm', 1, pods('p1').map(podDriver)), series('template', 'comfy', 1, others), series('family', 'pod', 1, pods('p1').map(podDriver))], rule);
    expect(two.map((c) => c.key).sort()).toEqual(['anomaly:acme:template:template-comfy', 'anomaly:acme:template:template-vllm']);
  });

  it('keys a scale-up of like pods by the template they ran on, so it is one page while the window slides and the series showing it change', () => {
    // eight replicas of the serving template start on 2026-09-13 beside its fleet pods on the same GPU type, which grew
    // a pod a week before (the GPU type's older anomalous days); the template departs from the replicas' first day
    const pod = (id: string, excess: string) => ({ ...driver(id, id, excess), family: 'pod', template_id: 'tpl-vllm', gpu_type_id: 'rtx4090' });
    const replicas = (excess: string) => ['replica-2', 'replica-4', 'replica-6', 'replica-7', 'replica-5'].map((id) => pod(id, excess));
    const withDays = (s: SeriesAnomaly, days: string[]) => ({ ...s, days, worst: { ...s.worst, day: days.at(-1)! } });
    const nights = [
      // the first night: the GPU type led by the fleet's own growth (its older days), the template by the replicas
      [
        withDays(series('gpu_type', 'RTX 4090', 3, [pod('serve-11', '72.74'), pod('serve-10', '47.80'), ...replicas('26.32').slice(0, 3)]), ['2026-09-01', '2026-09-05', '2026-09-13', '2026-09-14']),
        withDays(series('template', 'vLLM', 1, replicas('16.28')), ['2026-09-14']),
      ],
      // two weeks on: the fleet's days have left the window and the GPU type is as old as the template
      [
        withDays(series('template', 'vLLM', 1, replicas('120.54')), ['2026-09-14', '2026-09-20']),
        withDays(series('gpu_type', 'RTX 4090', 3, replicas('120.54')), ['2026-09-14', '2026-09-21']),
        withDays(series('family', 'pod', 1, replicas('120.54')), ['2026-09-14', '2026-09-20']),
      ],
      // the last night: only the GPU type's last day is left, led by a fleet pod added since
      [withDays(series('gpu_type', 'RTX 4090', 2, [pod('serve-12', '13.31'), ...replicas('2.42')]), ['2026-09-21'])],
    ];
    for (const [n, night] of nights.entries()) {
      expect(incidentsOf(night, rule).map((c) => c.key), `night ${n}`).toEqual(['anomaly:acme:template:tpl-vllm']);
    }
    // a GPU type led by the replicas and a dev pod of another template is the template's incident, not a second page
    const dev = { ...pod('dev-1', '30.00'), template_id: 'tpl-dev' };
    const both = [withDays(series('gpu_type', 'RTX 4090', 2, [...replicas('40.00').slice(0, 2), dev]), ['2026-09-13', '2026-09-14']), series('template', 'vLLM', 1, replicas('40.00'))];
    expect(incidentsOf(both, rule).map((c) => c.key)).toEqual(['anomaly:acme:template:tpl-vllm']);
    // pods of several templates on one GPU type are that GPU type's rise
    const mixed = [pod('a', '60.00'), { ...pod('b', '55.00'), template_id: 'tpl-comfy' }, pod('c', '50.00')];
    expect(incidentsOf([series('gpu_type', 'RTX 4090', 1, mixed)], rule).map((c) => c.key)).toEqual(['anomaly:acme:gpu_type:rtx4090']);
  });

  it('keeps apart a series another resource drove most, and a spread series under its own key', () => {
    const spike = driver('ep1', 'sdxl-image-api', '218.03');
    const vllm = driver('ep2', 'vllm-03', '900.00');
    const found = incidentsOf(
      [
        series('endpoint', 'sdxl-image-api', 1, [spike]),
        series('endpoint', 'vllm-03', 1, [vllm]),
        series('family', 'serverless', 1, [vllm, spike]),
        series('template', 'spread-out', 1, [driver('ep3', 'a', '110.00'), driver('ep4', 'b', '104.61')]),
      ],
      rule,
    );
    expect(found.map((c) => c.key).sort()).toEqual(['anomaly:acme:driver:serverless:ep1', 'anomaly:acme:driver:serverless:ep2', 'anomaly:acme:template:template-spread-out']);
    const lone = found.find((c) => c.key === 'anomaly:acme:template:template-spread-out')!;
    // what the day was compared with, in the words /explore shows, and the link that shows it
    expect(lone.message).toBe(
      'template spread-out (acme) spent $244.17 on 2026-11-16 against $29.56 on a typical weekday (the median of the 20 weekdays before; MAD $1.13): ' +
        "72.6 robust standard deviations out; $214.61 above what was expected that day: 21.5 % of acme's typical day ($1,000.00). " +
        'Driven by (above their average day, over the anomalous days): a +$110.00, b +$104.61. ' +
        'In the explorer: /explore?from=2026-10-19&to=2026-11-16&granularity=day&by=resource&filter=account%3Aacme&filter=template%3Aspread-out',
    );
    expect(lone.supersedes).toEqual([]);
  });

  it('opens no incident for a series none of whose resources rose, nor for a family whose pods rose only where they are usual', () => {
    const pod = (id: string, excess: string) => ({ ...driver(id, id, excess), family: 'pod' });
    const volume = (id: string, excess: string) => ({ ...driver(id, id, excess), family: 'storage', in_narrower_series: false });
    const found = incidentsOf(
      [
        // bursts: above its median, but no resource above its own average day
        series('template', 'bursty', 1, []),
        // a training job, a month-close run and a fleet pod on one day: the family rises, none of their templates or GPU types
        series('family', 'pod', 1, [pod('train-7', '40.00'), pod('month-close', '30.00'), pod('serve-9', '12.00')]),
        // volumes have no narrower series: their family is where a leak shows
        series('family', 'storage', 1, [volume('ckpt-1', '12.50'), volume('ckpt-2', '11.57')]),
      ],
      rule,
    );
    expect(found.map((c) => c.key)).toEqual(['anomaly:acme:family:family-storage']);
  });

  it('puts a spread series whose biggest driver drives an incident into that incident: one cause, one page', () => {
    const pod = (id: string, excess: string) => ({ ...driver(id, id, excess), family: 'pod' });
    const leftOn = pod('dev-gpu-box', '135.10');
    const found = incidentsOf(
      [
        series('template', 'PyTorch', 2, [leftOn]),
        // the family: the pod left on with the fleet's drift, under two thirds of the excess
        series('family', 'pod', 1, [leftOn, pod('serve-8', '32.56'), pod('serve-7', '24.25'), pod('serve-6', '15.93')]),
      ],
      rule,
    );
    expect(found.map((c) => c.key)).toEqual(['anomaly:acme:driver:pod:dev-gpu-box']);
    expect((found[0]!.details.series as { dimension: string }[]).map((s) => s.dimension)).toEqual(['template', 'family']);
  });
});
