// The labelled events a team wants paged for, each added to a draft on its day: a one-day spike, a dev pod left on,
// a job of unusual size, a scale-up by mistake, a new expensive workload, a slow leak. `small` makes the same event
// at a size too small to matter (it is labelled `may` when the ledger confirms it is small).
import { createActivityBuilder, devActivity } from '../account/activity.ts';
import { RUNNING, type Activity } from '../account/types.ts';
import { DAY, HOUR, MINUTE, floorTo } from '../time.ts';
import { addPod } from './base.ts';
import { dayText, newTemplate, templateNamed, type ScenarioDraft } from './draft.ts';
import type { EventKind } from './labels.ts';

export type EventSize = 'large' | 'small';
type Builder = (draft: ScenarioDraft, day: number, size: EventSize) => void;

const minute = (t: number) => floorTo(t, MINUTE);

const spike: Builder = (draft, day, size) => {
  const endpoint = draft.endpoints.find((e) => e.spike === null);
  if (!endpoint) throw new RangeError('every endpoint of the scenario already has its spike');
  const factor = size === 'large' ? draft.ctx.rng.between(5, 9) : draft.ctx.rng.between(1.3, 1.6);
  endpoint.spike = { day: new Date(day), factor };
  draft.events.push({
    kind: 'spike', description: `endpoint ${endpoint.name} spends about ${factor.toFixed(1)}× its usual day for one day`,
    startDay: dayText(day), firstDay: dayText(day), impactDays: 1,
    resources: [{ source: 'serverless', id: endpoint.id }], seriesIds: [endpoint.id, endpoint.templateId],
  });
};

const runaway: Builder = (draft, day, size) => {
  // a dev pod that ran business hours for months is not stopped on the evening of `day` and runs on
  const { ctx } = draft;
  const from = ctx.historyStart + 2 * DAY + 9 * HOUR;
  const leftOn = day + 20 * HOUR;
  const [gpu, count] = size === 'large' ? ['NVIDIA H100 80GB HBM3', Math.min(8, 2 * draft.m)] as const : ['NVIDIA RTX A4000', 1] as const;
  const schedule = devActivity(ctx.rng.int(1, 2 ** 30), from, leftOn);
  const b = createActivityBuilder(from, ctx.horizonEnd);
  for (let i = 0; i < schedule.starts.length; i++) b.add(schedule.starts[i]!, schedule.ends[i]!, schedule.states[i]!);
  b.add(leftOn, ctx.horizonEnd, RUNNING);
  const activity: Activity = b.build();
  const pod = addPod(draft, { name: 'dev-gpu-box', kind: 'dev', gpu, count, template: templateNamed(draft, 'PyTorch 2.4'), from, to: null, activity });
  draft.events.push({
    kind: 'runaway', description: `dev pod ${pod.names[0]!.name} (${count}× ${gpu}) left running from the evening of ${dayText(day)}`,
    startDay: dayText(day), firstDay: dayText(day + DAY), impactDays: 3,
    resources: [{ source: 'pods', id: pod.id }], seriesIds: [],
  });
};

const unusualSize: Builder = (draft, day, size) => {
  // the first cadence's template and GPU, at 4–8 times its GPU count (small: twice)
  const cadence = draft.nonEvents.find((n) => n.kind === 'cadence')!;
  const template = draft.templates.find((t) => t.id === cadence.seriesIds[0])!;
  const routine = draft.pods.find((p) => p.id === cadence.resources[0]!.id)!;
  const count = Math.min(8, routine.gpu!.count * (size === 'large' ? draft.ctx.rng.int(4, 8) : 2));
  const start = minute(day + draft.ctx.rng.between(8, 12) * HOUR);
  const end = minute(start + draft.ctx.rng.between(2, 3) * DAY);
  const pod = addPod(draft, { name: 'train-big-run', kind: 'batch', gpu: routine.gpu!.id, count, template, from: start, to: end });
  draft.events.push({
    kind: 'unusual-size', description: `a ${template.name} job on ${count}× ${routine.gpu!.id} (the routine runs use ${routine.gpu!.count})`,
    startDay: dayText(start), firstDay: dayText(start), impactDays: 2,
    resources: [{ source: 'pods', id: pod.id }], seriesIds: [],
  });
};

const scaleUp: Builder = (draft, day, size) => {
  const { rng } = draft.ctx;
  const n = size === 'large' ? Math.min(24, rng.int(6, 10) * draft.m) : 1;
  const start = day + 10 * HOUR;
  const end = start + rng.int(5, 12) * DAY;
  const template = templateNamed(draft, 'vLLM OpenAI server');
  const ids = Array.from({ length: n }, (_, i) =>
    addPod(draft, { name: `serve-replica-${i + 1}`, kind: 'service', gpu: 'NVIDIA GeForce RTX 4090', count: 1, template, from: start, to: end }).id);
  draft.events.push({
    kind: 'scale-up', description: `${n} replica pods started by mistake, running ${Math.round((end - start) / DAY)} days`,
    startDay: dayText(start), firstDay: dayText(start), impactDays: 3,
    resources: ids.map((id) => ({ source: 'pods', id })), seriesIds: [],
  });
};

const newWorkload: Builder = (draft, day, size) => {
  const { rng } = draft.ctx;
  const template = newTemplate(draft, 'PyTorch 2.4', 'research trainer', 'ghcr.io/acme-ml/research-trainer:0.9');
  const [gpu, count] = size === 'large' ? ['NVIDIA H100 80GB HBM3', rng.int(2, 4)] as const : ['NVIDIA RTX A4000', 1] as const;
  const start = day + 9 * HOUR;
  const end = rng.chance(0.5) ? null : start + rng.int(10, 30) * DAY;
  const pod = addPod(draft, { name: 'research-run', kind: 'service', gpu, count, template, from: start, to: end });
  draft.events.push({
    kind: 'new-workload', description: `a new template (${template.name}) on ${count}× ${gpu}`,
    startDay: dayText(start), firstDay: dayText(start), impactDays: 3,
    resources: [{ source: 'pods', id: pod.id }], seriesIds: [template.id],
  });
};

const slowLeak: Builder = (draft, day, size) => {
  // a checkpoint volume left behind every two days
  const { ctx } = draft;
  const gb = size === 'large' ? 4000 : 500;
  const ids: string[] = [];
  for (let t = day + 15 * HOUR, i = 0; t < ctx.horizonEnd && i < 20; t += 2 * DAY, i++) {
    const id = ctx.newId(10);
    draft.volumes.push({ id, name: `ckpt-${i + 1}`, size: gb, dataCenter: 'US-TX-3', type: 'HIGH_PERFORMANCE', createdAt: new Date(t), deletedAt: null });
    ids.push(id);
  }
  draft.events.push({
    kind: 'slow-leak', description: `a ${gb} GB checkpoint volume left behind every two days`,
    // firstDay is moved to the day the leak costs as much as a page is worth (truth.ts)
    startDay: dayText(day), firstDay: dayText(day), impactDays: 3,
    resources: ids.map((id) => ({ source: 'network-volumes', id })), seriesIds: [],
  });
};

export const EVENT_BUILDERS: Record<EventKind, Builder> = {
  spike,
  runaway,
  'unusual-size': unusualSize,
  'scale-up': scaleUp,
  'new-workload': newWorkload,
  'slow-leak': slowLeak,
};
