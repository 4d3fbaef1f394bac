// Rows a killed run left without an outcome (carry-out.ts), settled at the start of the next run by reading each
// resource's state – the write is never sent again from here: in the target state, the write took effect (done);
// as before, it was not sent or did not take effect (unchanged – a rule that still fires proposes it anew, with its
// own row); anything else was changed by someone else.
import type { ApiClient } from '../api/index.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import { openRows, recordOutcome, type AuditRow, type Outcome } from './audit.ts';
import { readBack } from './resources.ts';

export interface Reconciled {
  row: AuditRow;
  outcome: Outcome | null;
  detail: string;
}

const SETTLED = 'settled after an interrupted run by reading the resource back; the write was not sent again';

export async function reconcile(sessions: WriteSessions, clients: ReadonlyMap<string, ApiClient>, signal?: AbortSignal): Promise<Reconciled[]> {
  const rows = await sessions.write((store) => openRows(store), { publish: false });
  const out: Reconciled[] = [];
  for (const row of rows) {
    const client = clients.get(row.account);
    if (!client) {
      out.push({ row, outcome: null, detail: `account ${row.account} is not in the config: the row stays open until it is` });
      continue;
    }
    const state = (await readBack(client, row.resourceType, row.resourceId, signal))?.state ?? null;
    const outcome: Outcome = state === row.stateTarget ? 'done' : state === row.stateBefore ? 'unchanged' : state === null ? 'failed' : 'changed-elsewhere';
    const detail = state === null ? `${SETTLED}; the resource is no longer listed` : SETTLED;
    await sessions.write((store) => recordOutcome(store, row.actionId, outcome, detail, state), { publish: false });
    out.push({ row, outcome, detail });
  }
  return out;
}
