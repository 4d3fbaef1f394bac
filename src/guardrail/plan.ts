// What each guardrail would do now, and why (issue 40 §2): for every rule and account whose trigger fires, the
// resources in its scope – none matching `except`, at most maxPerRun, the costliest first – that are not yet in the
// state the action brings about. Reads only: the report views for the triggers, the inventory routes for the
// resources. A proposal's id is stable (rule, account, resource, action), so `apply --approve ID` names it.
import { createHash } from 'node:crypto';
import { podActionRequest, workersRequest, type ApiClient, type WriteRequest } from '../api/index.ts';
import type { GuardrailRule } from '../config/guardrails.ts';
import type { Store } from '../store/database.ts';
import { decimalStringToMicros, microsToDecimalString, numberToMicros } from '../util/decimal.ts';
import { anyGlobMatches } from '../util/glob-match.ts';
import { podState, readResources, workersState, type Resource, type ResourceType } from './resources.ts';
import { endpointHourlyCosts, firings, type Firing } from './triggers.ts';

export interface Proposal {
  id: string;
  rule: GuardrailRule;
  account: string;
  resource: Resource;
  stateTarget: string;
  request: WriteRequest;
  figure: string;
  /** USD per hour the resource costs now (pods: compute; endpoints: the last complete day's average); null: unknown. */
  hourlyCost: string | null;
  /** What the action saves per day at that cost; null: unknown. */
  savingPerDay: string | null;
}

export interface RulePlan {
  rule: GuardrailRule;
  account: string;
  firing: Firing;
  proposals: Proposal[];
  /** In scope and already in the target state: nothing to do (an approval of one is recorded as a no-op). */
  settled: Proposal[];
  /** In scope and to act on, but beyond maxPerRun. */
  capped: number;
}

export interface PlanAccount {
  name: string;
  client: ApiClient;
}

export const proposalId = (rule: string, account: string, resourceId: string, action: string): string =>
  `g${createHash('sha256').update([rule, account, resourceId, action].join('\u0000')).digest('hex').slice(0, 10)}`;

const typeOf = (rule: GuardrailRule): ResourceType => (rule.action === 'stop-pods' ? 'pod' : 'endpoint');

function inScope(rule: GuardrailRule, r: Resource, firing: Firing): boolean {
  if (r.clusterMember) return false;
  if (firing.resources && !firing.resources.has(r.id)) return false;
  const s = rule.scope;
  if (s.resource && !anyGlobMatches(s.resource, [r.id, r.name])) return false;
  if (s.template && !anyGlobMatches(s.template, [r.template])) return false;
  if (s.gpuType && !anyGlobMatches(s.gpuType, [r.gpuType])) return false;
  if (s.dataCenter && !anyGlobMatches(s.dataCenter, [r.dataCenter])) return false;
  return !anyGlobMatches(rule.except, [r.id, r.name]);
}

/** The state the rule's action brings the resource to, and the write that does it. */
function targetOf(rule: GuardrailRule, r: Resource): { state: string; request: WriteRequest } {
  if (rule.action === 'stop-pods') return { state: podState('EXITED'), request: podActionRequest(r.id, 'stop') };
  const { workersMax } = JSON.parse(r.state) as { workersMax: number };
  if (rule.action === 'scale-endpoint-to-zero') return { state: workersState(0, 0), request: workersRequest(r.id, { workersMin: 0, workersMax: 0 }) };
  return { state: workersState(0, workersMax), request: workersRequest(r.id, { workersMin: 0 }) };
}

function costs(rule: GuardrailRule, r: Resource, account: string, firing: Firing, endpointCosts: Map<string, string>): Pick<Proposal, 'hourlyCost' | 'savingPerDay'> {
  if (r.type === 'pod') {
    if (r.cost === null) return { hourlyCost: null, savingPerDay: null };
    const hourly = numberToMicros(r.cost);
    return { hourlyCost: microsToDecimalString(hourly), savingPerDay: microsToDecimalString(hourly * 24n) };
  }
  const hourly = endpointCosts.get(`${account}\u0000${r.id}`) ?? null;
  // workers-min-to-zero saves the idle baseline the waste finding measured, not the whole endpoint's cost
  const monthly = rule.action === 'workers-min-to-zero' ? firing.resources?.get(r.id) : undefined;
  const perDay =
    rule.action === 'scale-endpoint-to-zero' && hourly !== null ? decimalStringToMicros(hourly) * 24n
    : monthly !== undefined ? decimalStringToMicros(monthly) / 30n
    : null;
  return { hourlyCost: hourly, savingPerDay: perDay === null ? null : microsToDecimalString(perDay) };
}

const costOrder = (p: Proposal): bigint => (p.hourlyCost === null ? -1n : decimalStringToMicros(p.hourlyCost));

/** The plan of every rule for every account it covers. */
export async function planGuardrails(rules: readonly GuardrailRule[], accounts: readonly PlanAccount[], store: Store, signal?: AbortSignal): Promise<RulePlan[]> {
  const plans: RulePlan[] = [];
  const endpointCosts = await endpointHourlyCosts(store);
  const inventories = new Map<string, Promise<Resource[]>>();
  const inventory = (a: PlanAccount, type: ResourceType) => {
    const key = `${a.name}\u0000${type}`;
    if (!inventories.has(key)) inventories.set(key, readResources(a.client, type, signal));
    return inventories.get(key)!;
  };
  for (const rule of rules) {
    const covered = accounts.filter((a) => rule.account === undefined || rule.account === a.name);
    for (const firing of await firings(store, rule.trigger, covered.map((a) => a.name))) {
      const account = covered.find((a) => a.name === firing.account)!;
      const proposals: Proposal[] = [];
      const settled: Proposal[] = [];
      for (const r of await inventory(account, typeOf(rule))) {
        if (!inScope(rule, r, firing)) continue;
        if (r.type === 'pod' && r.state !== podState('RUNNING') && r.state !== podState('EXITED')) continue; // starting, provisioning…
        const target = targetOf(rule, r);
        const p: Proposal = {
          id: proposalId(rule.name, account.name, r.id, rule.action),
          rule,
          account: account.name,
          resource: r,
          stateTarget: target.state,
          request: target.request,
          figure: firing.figure,
          ...costs(rule, r, account.name, firing, endpointCosts),
        };
        (r.state === target.state ? settled : proposals).push(p);
      }
      proposals.sort((a, b) => (costOrder(b) > costOrder(a) ? 1 : costOrder(b) < costOrder(a) ? -1 : a.id < b.id ? -1 : 1));
      plans.push({ rule, account: account.name, firing, proposals: proposals.slice(0, rule.maxPerRun), settled, capped: Math.max(0, proposals.length - rule.maxPerRun) });
    }
  }
  return plans;
}
