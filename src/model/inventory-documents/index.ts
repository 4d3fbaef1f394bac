// Every inventory document kind, declared once each: the stg_* views are generated from these (npm run sql:generate).
import { CLUSTER } from './clusters.ts';
import { ENDPOINT } from './endpoints.ts';
import { GPU_TYPE } from './gpu-types.ts';
import { GRAPHQL_ENDPOINT } from './graphql-endpoints.ts';
import { NETWORK_VOLUME } from './network-volumes.ts';
import { POD } from './pods.ts';
import { SERVERLESS_DISCOUNT } from './serverless-discounts.ts';
import { TEMPLATE } from './templates.ts';
import type { InventoryDocumentDef, InventoryRoute } from './define.ts';

export type { FieldType, InventoryDocumentDef, InventoryField, InventoryRoute } from './define.ts';

// as declared, literals kept: the list names below are typed from it
const DECLARED = [POD, ENDPOINT, TEMPLATE, NETWORK_VOLUME, GPU_TYPE, CLUSTER, GRAPHQL_ENDPOINT, SERVERLESS_DISCOUNT] as const;

export const INVENTORY_DOCUMENTS: readonly InventoryDocumentDef[] = DECLARED;

/** The names of the REST lists (`pods`, `serverless`, `gpus`…): what the client and the extractor call them. */
export type InventoryListName = Extract<(typeof DECLARED)[number], { route: InventoryRoute }>['route']['name'];

/** The REST lists in declaration order, each with the raw_inventory kind its documents are stored as. */
export const INVENTORY_LISTS: ReadonlyArray<InventoryRoute & { name: InventoryListName; kind: string }> = DECLARED.flatMap((d) =>
  'route' in d ? [{ ...d.route, kind: d.kind }] : [],
);
