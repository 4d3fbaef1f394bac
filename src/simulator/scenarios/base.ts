// The base pattern every scenario account shares, at a size multiplier m (1 small, 3 medium): an always-on fleet
// that grows step by step, weekday-only dev pods, routine training jobs on a cadence, a job on the first of every
// month, Serverless endpoints with steady traffic and network volumes – plus, per evaluation month, its forecasting
// regime (flat, trending, a level shift mid-month, a workload ending mid-month) and now and then an outage of a fleet
// pod. Everything here is a labelled non-event: routine spend a detector must not page for.
import { continuousActivity, createActivityBuilder, devActivity } from '../account/activity.ts';
import { DATA_CENTERS } from '../account/context.ts';
import { endpointFromSpec } from '../account/endpoints.ts';
import { podFromSpec } from '../account/pods.ts';
import { RUNNING, STOPPED, type Activity, type PodKind, type SimPod, type SimTemplate } from '../account/types.ts';
import { DAY, HOUR, MINUTE, floorTo } from '../time.ts';
import { REGIMES } from './labels.ts';
import { dayText, templateNamed, type ScenarioDraft } from './draft.ts';

const FLEET_GPUS = [
  ['NVIDIA GeForce RTX 4090', 'vLLM OpenAI server'],
  ['NVIDIA RTX  A6000', 'ComfyUI'],
  ['NVIDIA L40S', 'vLLM OpenAI server'],
] as const;

export interface PodArgs {
  name: string;
  kind: PodKind;
  gpu: string;
  count: number;
  template: SimTemplate | null;
  image?: string;
  from: number;
  /** Terminated here (null: never, within the horizon). */
  to: number | null;
  activity?: Activity;
}

export function addPod(draft: ScenarioDraft, args: PodArgs): SimPod {
  const { ctx } = draft;
  const end = args.to ?? ctx.horizonEnd;
  const pod = podFromSpec(ctx, {
    name: args.name, kind: args.kind, gpu: { id: args.gpu, count: args.count }, cloud: 'SECURE',
    dataCenterId: DATA_CENTERS[draft.pods.length % DATA_CENTERS.length]!, template: args.template, templateVisible: true,
    image: args.image, containerDisk: 20, volume: null, createdAt: args.from, terminatedAt: args.to,
    activity: args.activity ?? continuousActivity(args.from, end),
  });
  draft.pods.push(pod);
  return pod;
}

const minute = (t: number) => floorTo(t, MINUTE);

/** One always-on fleet pod from `from`; with an outage [down, up) when given. */
function fleetPod(draft: ScenarioDraft, from: number, outage?: [number, number]): SimPod {
  const [gpu, template] = draft.ctx.rng.pick(FLEET_GPUS);
  const n = draft.pods.filter((p) => p.kind === 'service').length + 1;
  let activity: Activity | undefined;
  if (outage) {
    const b = createActivityBuilder(from, draft.ctx.horizonEnd);
    b.add(from, outage[0], RUNNING);
    b.add(outage[0], outage[1], STOPPED);
    b.add(outage[1], draft.ctx.horizonEnd, RUNNING);
    activity = b.build();
  }
  return addPod(draft, { name: `serve-${String(n).padStart(2, '0')}`, kind: 'service', gpu, count: 1, template: templateNamed(draft, template), from, to: null, activity });
}

export function buildBase(draft: ScenarioDraft): void {
  const { ctx, m } = draft;
  const { rng, historyStart } = ctx;
  const firstMonth = draft.months[0]!.start;
  const growth: string[] = [];

  // the fleet: 3·m pods from the start, one more every two to four weeks before the evaluation months
  for (let i = 0; i < 3 * m; i++) fleetPod(draft, historyStart + rng.int(0, 3) * DAY);
  for (let t = historyStart + rng.int(14, 28) * DAY; t < firstMonth; t += rng.int(14, 28) * DAY) {
    for (let i = 0; i < m; i++) growth.push(fleetPod(draft, minute(t + 10 * HOUR)).id);
  }

  // weekday dev pods (the weekly cycle)
  const dev: string[] = [];
  const pytorch = templateNamed(draft, 'PyTorch 2.4');
  for (let i = 0; i < 3 * m; i++) {
    const gpu = rng.pick(['NVIDIA RTX A4000', 'NVIDIA RTX A5000', 'NVIDIA GeForce RTX 4090']);
    const from = historyStart + rng.int(0, 5) * DAY + 9 * HOUR;
    dev.push(addPod(draft, { name: `dev-${i + 1}`, kind: 'dev', gpu, count: 1, template: pytorch, from, to: null, activity: devActivity(rng.int(1, 2 ** 30), from, ctx.horizonEnd) }).id);
  }
  draft.nonEvents.push({ kind: 'weekly-cycle', description: `${dev.length} dev pods that run on weekday business hours only`, days: [], resources: dev.map((id) => ({ source: 'pods', id })), seriesIds: [pytorch.id] });

  // routine training jobs: the same template and GPU every 5–10 days, each running 1–3 days
  const cadences = [
    { template: 'Axolotl fine-tune', gpu: 'NVIDIA A100 80GB PCIe', count: 1 },
    { template: 'PyTorch 2.4', gpu: 'NVIDIA L40S', count: 2 },
    { template: 'ComfyUI', gpu: 'NVIDIA GeForce RTX 4090', count: 4 },
  ].slice(0, m === 1 ? 1 : 3);
  for (const c of cadences) {
    const template = templateNamed(draft, c.template);
    const jobs: string[] = [];
    const days: string[] = [];
    for (let t = historyStart + rng.int(1, 6) * DAY; t < ctx.horizonEnd - 4 * DAY; t += rng.int(5, 10) * DAY) {
      const start = minute(t + rng.between(7, 15) * HOUR);
      const end = minute(start + rng.between(1, 3) * DAY);
      jobs.push(addPod(draft, { name: `train-${c.template.split(' ')[0]!.toLowerCase()}-${jobs.length + 1}`, kind: 'batch', gpu: c.gpu, count: c.count, template, from: start, to: end }).id);
      days.push(dayText(start));
    }
    draft.nonEvents.push({
      kind: 'cadence', description: `training jobs on ${c.template}, ${c.count}× ${c.gpu}, every 5–10 days for 1–3 days`,
      days, resources: jobs.map((id) => ({ source: 'pods', id })), seriesIds: [template.id, c.gpu],
    });
  }

  // a report job on the first of every month (a month-start effect)
  const monthly: string[] = [];
  const monthlyDays: string[] = [];
  for (let d = new Date(historyStart); d.getTime() < ctx.horizonEnd - DAY; d = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1))) {
    const start = d.getTime() + 2 * HOUR;
    monthly.push(addPod(draft, { name: `month-close-${dayText(start).slice(0, 7)}`, kind: 'batch', gpu: 'NVIDIA GeForce RTX 4090', count: 2 * m, template: null, image: 'ghcr.io/acme-ml/month-close:1.2', from: start, to: start + 14 * HOUR }).id);
    monthlyDays.push(dayText(start));
  }
  draft.nonEvents.push({ kind: 'month-start', description: 'a month-close job on the first of every month', days: monthlyDays, resources: monthly.map((id) => ({ source: 'pods', id })), seriesIds: [] });

  // Serverless with steady traffic
  const endpointTemplates = ['worker-vllm', 'worker-faster-whisper', 'worker-sdxl'];
  for (let i = 0; i < m; i++) {
    draft.endpoints.push(endpointFromSpec(ctx, {
      name: `${endpointTemplates[i]!.replace('worker-', '')}-prod`, template: templateNamed(draft, endpointTemplates[i]!),
      pools: i === 0 ? ['AMPERE_48'] : ['AMPERE_24'], gpuCount: 1, workersMin: 0, workersMax: 10, idleTimeout: 5, flashboot: 'FLASHBOOT',
      createdAt: historyStart, deletedAt: null,
      traffic: { peakWorkers: rng.between(1, 2), peakHour: rng.int(13, 19), weekendFactor: rng.between(0.6, 0.9), growthPerYear: 0.2, idleThreshold: 0.05 },
    }));
  }

  // network volumes
  for (let i = 0; i < 2 * m; i++) {
    draft.volumes.push({ id: ctx.newId(10), name: `datasets-${i + 1}`, size: 100 * rng.int(2, 10), dataCenter: 'EU-RO-1', type: 'STANDARD', createdAt: new Date(historyStart), deletedAt: null });
  }

  // the evaluation months' regimes
  for (const month of draft.months) {
    const regime = rng.pick(REGIMES);
    draft.regimes.set(month.month, regime);
    if (regime === 'trending') {
      for (const day of [3, 10, 17, 24]) for (let i = 0; i < m; i++) growth.push(fleetPod(draft, month.start + (day - 1) * DAY + 10 * HOUR).id);
    } else if (regime === 'level-shift') {
      const at = month.start + (rng.int(12, 16) - 1) * DAY + 10 * HOUR;
      for (let i = 0; i < 2 * m; i++) growth.push(fleetPod(draft, at).id);
    } else if (regime === 'workload-ends') {
      // a project that has run since before the month ends mid-month
      const from = month.start - rng.int(30, 45) * DAY;
      const to = month.start + (rng.int(12, 16) - 1) * DAY + 17 * HOUR;
      const ended = Array.from({ length: 2 * m }, (_, i) =>
        addPod(draft, { name: `project-${month.month}-${i + 1}`, kind: 'service', gpu: 'NVIDIA L40S', count: 1, template: templateNamed(draft, 'vLLM OpenAI server'), from, to }).id);
      draft.nonEvents.push({ kind: 'fleet-growth', description: `a project of ${ended.length} pods starts`, days: [dayText(from)], resources: ended.map((id) => ({ source: 'pods', id })), seriesIds: [] });
      draft.nonEvents.push({ kind: 'drop', description: `the project of ${ended.length} pods ends mid-month`, days: [dayText(to)], resources: ended.map((id) => ({ source: 'pods', id })), seriesIds: [] });
    }
  }
  draft.nonEvents.push({ kind: 'fleet-growth', description: 'always-on fleet pods added step by step', days: growth.map((id) => dayText(draft.pods.find((p) => p.id === id)!.createdAt.getTime())), resources: growth.map((id) => ({ source: 'pods', id })), seriesIds: [] });

  // an outage: a fleet pod down for one to three days in a month, in about half the accounts
  if (rng.chance(0.5)) {
    const month = rng.pick(draft.months);
    const down = month.start + rng.int(4, 24) * DAY + rng.int(0, 23) * HOUR;
    const up = down + rng.int(1, 3) * DAY;
    const pod = fleetPod(draft, historyStart, [down, up]);
    draft.nonEvents.push({ kind: 'outage', description: `fleet pod ${pod.names[0]!.name} down for ${Math.round((up - down) / DAY)} day(s)`, days: [dayText(down)], resources: [{ source: 'pods', id: pod.id }], seriesIds: [] });
  }
}
