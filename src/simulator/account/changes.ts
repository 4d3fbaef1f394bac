// What a client's write changes in the account, from the moment it is made (platform-api-overview.md: pod actions,
// in-place endpoint updates). The past stays as billed: a stop ends the current run at `at` and leaves the pod
// EXITED (billing only its volume, at the stopped rate – billing-api-v2.md §6) until a start; a start runs it from
// `at` on. Worker settings change from `at`: workersMax 0 bills nothing from then on. Only run state and worker
// counts change; nothing here terminates or deletes.
import { createActivityBuilder, intervalAt } from './activity.ts';
import { RUNNING, STOPPED, type SimEndpoint, type SimPod } from './types.ts';

/** RUNNING or EXITED at `t`, as /v2/pods reports it. */
export function podRunningAt(pod: SimPod, t: number): boolean {
  const i = intervalAt(pod.activity, t);
  return i >= 0 && pod.activity.states[i] === RUNNING;
}

/** The pod's activity up to `at` as it was, then `state` until it ends (its termination or the horizon). */
function switchPod(pod: SimPod, at: number, horizonEnd: number, state: number): void {
  const end = Math.min(horizonEnd, pod.terminatedAt?.getTime() ?? horizonEnd);
  const a = pod.activity;
  const b = createActivityBuilder(pod.createdAt.getTime(), end);
  for (let i = 0; i < a.starts.length && a.starts[i]! < at; i++) b.add(a.starts[i]!, Math.min(a.ends[i]!, at), a.states[i]!);
  b.add(at, end, state);
  pod.activity = b.build();
}

export function stopPod(pod: SimPod, at: number, horizonEnd: number): void {
  switchPod(pod, at, horizonEnd, STOPPED);
}

export function startPod(pod: SimPod, at: number, horizonEnd: number): void {
  switchPod(pod, at, horizonEnd, RUNNING);
}

/** New worker settings from `at` on; the earlier ones are kept for the hours before. */
export function setWorkers(e: SimEndpoint, at: number, min: number, max: number): void {
  (e.workerHistory ??= []).push({ until: at, min: e.workersMin, max: e.workersMax });
  e.workersMin = min;
  e.workersMax = max;
}

/** The worker settings over [a, b), in pieces: each with its length in ms. */
export function workerSegments(e: SimEndpoint, a: number, b: number): { ms: number; min: number; max: number }[] {
  const out: { ms: number; min: number; max: number }[] = [];
  let from = a;
  for (const h of e.workerHistory ?? []) {
    if (h.until <= from) continue;
    const to = Math.min(h.until, b);
    if (to > from) out.push({ ms: to - from, min: h.min, max: h.max });
    from = to;
    if (from >= b) return out;
  }
  if (b > from) out.push({ ms: b - from, min: e.workersMin, max: e.workersMax });
  return out;
}
