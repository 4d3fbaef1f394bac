// One guardrail run at a time per database (issue 40 §3): `<db>.guardrails.lock`, held from settling interrupted
// rows until the last outcome is recorded, so two runs (a manual apply during the nightly run) never act on the same
// proposal. The same kind of lock file as the alert deliveries' (alert/delivery-lock.ts): a killed holder is taken
// over (store/lock.ts: pid and start time).
import { relative } from 'node:path';
import { acquireLock, type WriteLock } from '../store/lock.ts';

export function guardrailLockPathFor(dbPath: string): string {
  return `${dbPath}.guardrails.lock`;
}

export function acquireGuardrailLock(dbPath: string, options: { command: string; waitMs?: number; onWait?: (message: string) => void }): Promise<WriteLock> {
  return acquireLock(guardrailLockPathFor(dbPath), dbPath, { ...options, guards: `guardrails for ${relative(process.cwd(), dbPath) || dbPath}` });
}
