// The inventory lists (billing-api-v2.md §3): every object the key can see, no paging; each item needs an id.
import type { z } from 'zod';
import { ApiResponseError } from '../errors.ts';
import type { ApiRequester } from '../request.ts';
import { describeIssue, INVENTORY_ROUTES, inventoryResponseSchema, type InventoryKind } from '../schemas.ts';

export async function fetchInventory(requester: ApiRequester, kind: InventoryKind, signal?: AbortSignal): Promise<Record<string, unknown>[]> {
  const route = INVENTORY_ROUTES[kind];
  const what = `GET ${route.path}`;
  const { json } = await requester.request({ what, method: 'GET', path: route.path, query: route.query, signal });
  const parsed = (inventoryResponseSchema(kind) as z.ZodType).safeParse(json);
  if (!parsed.success) throw new ApiResponseError(`${what}: ${describeIssue(parsed.error)}`);
  return (parsed.data as Record<string, Record<string, unknown>[]>)[route.key]!;
}
