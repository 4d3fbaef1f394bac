// `--hostile-names` (issue 37 §6): the same account, every name the contract has – pod (each name of its history),
// endpoint (REST and GraphQL), template, network volume, cluster and GPU display name (billing-api-v2.md §3/§4) –
// replaced by one a red team would choose: markup, spreadsheet formulas, a leading tab or CR, a right-to-left
// override, CR/LF, and a name of 40,000 characters (more than a spreadsheet cell holds). Ids, images, prices and
// bills are untouched, so a sync gives the same figures under other names. Deterministic: the n-th object of a kind
// gets the n-th name below (round k past the list), and every name stays distinct within its kind.
import type { SimPod, SyntheticAccount } from './types.ts';

/** Characters of the longest name: past Excel's 32,767 per cell. */
export const LONG_NAME_CHARS = 40_000;

/**
 * The hostile names, in the order each kind hands them out: `o` is the object's own name, `k` the round. The ones
 * that need the object's name to stay distinct come first, so a kind of five objects already has a bidi override,
 * CR/LF, a long name and a formula.
 */
const NAMES: readonly ((o: string, k: number) => string)[] = [
  (o) => `=HYPERLINK("http://x","${o}")`,
  // shown as "…exe.jpg" on a screen that obeys the override
  (o) => `${o}\u202Egpj.exe`,
  // a line that looks like a row of its own in a terminal table or an alert
  (o) => `${o}\r\nfake-row  0.00`,
  (o) => `${o} `.padEnd(LONG_NAME_CHARS, 'x'),
  (_, k) => `=1+${k + 1}`,
  (o, k) => `<script>alert(${k + 1})</script>${o}`,
  (o, k) => `"><img src=x onerror=alert(${k + 1})>${o}`,
  (_, k) => `+${k + 1}`,
  (_, k) => `-${k + 1}`,
  (_, k) => `@SUM(${k + 1}+1)`,
  (_, k) => `\t=1+${k + 1}`,
  (_, k) => `\r=1+${k + 1}`,
];

/**
 * Where each kind starts in the list: the planted facts the alerts name (the idle endpoint, the unattached volume,
 * the EXITED pod) get a bidi override or CR/LF, so an alert's text has something to escape.
 */
const FIRST = { templates: 0, pods: 0, endpoints: 1, volumes: 2, clusters: 0, gpus: 0 } as const;

/** The n-th hostile name of a kind, made from the object's own name. */
export function hostileName(n: number, own: string): string {
  return NAMES[n % NAMES.length]!(own, Math.floor(n / NAMES.length));
}

/** Hands out a kind's names in order. */
function namer(kind: keyof typeof FIRST) {
  let n = FIRST[kind];
  return (own: string) => hostileName(n++, own);
}

/** The account with every name hostile; the planted facts name the same objects by their new names. */
export function withHostileNames(account: SyntheticAccount): SyntheticAccount {
  const template = namer('templates');
  const templates = account.templates.map((t) => ({ ...t, name: template(t.name) }));
  const pod = namer('pods');
  const pods: SimPod[] = account.pods.map((p) => ({ ...p, names: p.names.map((n) => ({ ...n, name: pod(n.name) })) }));
  const endpoint = namer('endpoints');
  const endpoints = account.endpoints.map((e) => ({ ...e, name: endpoint(e.name) }));
  const volume = namer('volumes');
  const volumes = account.volumes.map((v) => ({ ...v, name: volume(v.name) }));
  const cluster = namer('clusters');
  const clusters = account.clusters.map((c) => ({ ...c, name: cluster(c.name) }));
  const gpu = namer('gpus');
  const gpus = account.gpus.map((g) => ({ ...g, name: gpu(g.name) }));

  const podById = new Map(pods.map((p) => [p.id, p]));
  const podName = (id: string) => podById.get(id)!.names[0]!.name;
  const nameOf = <T extends { id: string; name: string }>(list: readonly T[], id: string) => list.find((x) => x.id === id)!.name;
  const f = account.planted;
  const renamed = podById.get(f.renamedPod.id)!;
  const planted = {
    ...f,
    idleMinWorkersEndpoint: { ...f.idleMinWorkersEndpoint, name: nameOf(endpoints, f.idleMinWorkersEndpoint.id) },
    unattachedVolume: { ...f.unattachedVolume, name: nameOf(volumes, f.unattachedVolume.id) },
    exitedPodWithVolume: { ...f.exitedPodWithVolume, name: podName(f.exitedPodWithVolume.id) },
    secureCheaperOnCommunity: { ...f.secureCheaperOnCommunity, name: podName(f.secureCheaperOnCommunity.id) },
    spendSpike: { ...f.spendSpike, name: nameOf(endpoints, f.spendSpike.id) },
    terminatedPod: { ...f.terminatedPod, name: podName(f.terminatedPod.id) },
    renamedPod: { ...f.renamedPod, oldName: renamed.names[0]!.name, newName: renamed.names.at(-1)!.name },
    templateNullPod: { ...f.templateNullPod, name: podName(f.templateNullPod.id) },
    cluster: { ...f.cluster, name: nameOf(clusters, f.cluster.id) },
  };
  return { ...account, templates, pods, endpoints, volumes, clusters, gpus, planted };
}
