// One write, exactly once, verified and recorded (issue 40 §3): the intent row is committed first; the resource is
// read again and the write skipped when it is already in the target state (a recorded no-op) or was changed by
// someone else meanwhile; the write is sent at most once (a 429 is waited out, a lost answer never repeated); the
// outcome is what the inventory shows afterwards, never what the write answered; the row is completed last. A run
// killed anywhere in between leaves a row without an outcome, which reconcile.ts settles by reading – never sending.
import { ApiForbiddenError, ApiWriteUnknownError, type ApiClient, type WriteRequest } from '../api/index.ts';
import type { WriteSessions } from '../store/shared-database.ts';
import { errorMessage } from '../util/errors.ts';
import { nextActionId, recordIntent, recordOutcome, type Intent, type Outcome } from './audit.ts';
import { killPoint } from './kill-point.ts';
import { readBack, type ResourceType } from './resources.ts';

export interface Completed {
  actionId: string;
  outcome: Outcome;
  detail: string;
  stateAfter: string | null;
}

export interface CarryOutContext {
  sessions: WriteSessions;
  client: ApiClient;
  /** How messages name the key's variable (never the key). */
  apiKeyEnv: string;
  signal?: AbortSignal;
  /** Between read-backs while the platform has not shown the change yet (default 1 s). */
  settleMs?: number;
}

export type ActionIntent = Omit<Intent, 'actionId' | 'request'>;

/** The permission a write needs, in the words a 403 tells the user. */
export const permissionFor = (type: ResourceType): string => (type === 'pod' ? 'pods: write' : 'serverless endpoints: write');

const READ_BACKS = 3;
const describe = (request: WriteRequest) => `${request.method} ${request.path} ${JSON.stringify(request.body)}`;

async function verify(ctx: CarryOutContext, type: ResourceType, id: string, target: string, wait: boolean): Promise<string | null> {
  for (let i = 0; ; i++) {
    const state = (await readBack(ctx.client, type, id, ctx.signal))?.state ?? null;
    if (state === target || !wait || i + 1 >= READ_BACKS) return state;
    await new Promise((r) => setTimeout(r, ctx.settleMs ?? 1000));
  }
}

export async function carryOut(ctx: CarryOutContext, intent: ActionIntent, request: WriteRequest): Promise<Completed> {
  const actionId = await ctx.sessions.write(
    async (store) => {
      const id = await nextActionId(store, intent.kind === 'undo' ? { undoes: intent.undoes! } : { proposalId: intent.proposalId });
      await recordIntent(store, { ...intent, actionId: id, request: describe(request) });
      return id;
    },
    { publish: false },
  );
  killPoint('before-write');
  const complete = async (outcome: Outcome, detail: string, stateAfter: string | null): Promise<Completed> => {
    // committed in the writer copy – durable –; the run publishes once at its end (apply.ts), not after every row
    await ctx.sessions.write((store) => recordOutcome(store, actionId, outcome, detail, stateAfter), { publish: false });
    killPoint('after-record');
    return { actionId, outcome, detail, stateAfter };
  };

  const now = (await readBack(ctx.client, intent.resourceType, intent.resourceId, ctx.signal))?.state ?? null;
  if (now === null) return complete('failed', 'the resource is no longer listed; nothing was sent', null);
  if (now === intent.stateTarget) return complete('no-op', 'already in the target state; nothing was sent', now);
  if (now !== intent.stateBefore) return complete('changed-elsewhere', `changed since the plan (now ${now}); nothing was sent`, now);

  let refused: { outcome: Outcome; detail: string } | undefined;
  let answered = true;
  try {
    await ctx.client.write(request, ctx.signal);
  } catch (e) {
    if (e instanceof ApiForbiddenError) {
      refused = { outcome: 'forbidden', detail: `the API key in ${ctx.apiKeyEnv} lacks the permission ${permissionFor(intent.resourceType)} (403)` };
    } else if (e instanceof ApiWriteUnknownError) {
      answered = false;
    } else {
      refused = { outcome: 'failed', detail: errorMessage(e) };
    }
  }
  killPoint('after-write');
  // a refusal changed nothing: one read confirms it; an answer (or none) may take a moment to show
  const after = await verify(ctx, intent.resourceType, intent.resourceId, intent.stateTarget, refused === undefined);
  if (after === intent.stateTarget) return complete('done', answered ? 'verified by reading the resource back' : 'the answer was lost; verified by reading the resource back', after);
  if (refused) return complete(refused.outcome, `${refused.detail}; the resource is unchanged`, after);
  return complete('failed', `${answered ? 'the write was answered' : 'the answer was lost'}, but the resource reads ${after ?? 'as gone'}; not sent again`, after);
}
