// Every inventory document kind, declared once each: the stg_* views are generated from these (npm run sql:generate).
import { CLUSTER } from './clusters.ts';
import { ENDPOINT } from './endpoints.ts';
import { GPU_TYPE } from './gpu-types.ts';
import { GRAPHQL_ENDPOINT } from './graphql-endpoints.ts';
import { NETWORK_VOLUME } from './network-volumes.ts';
import { POD } from './pods.ts';
import { SERVERLESS_DISCOUNT } from './serverless-discounts.ts';
import { TEMPLATE } from './templates.ts';
import type { InventoryDocumentDef } from './define.ts';

export type { FieldType, InventoryDocumentDef, InventoryField, InventoryRoute } from './define.ts';

export const INVENTORY_DOCUMENTS: readonly InventoryDocumentDef[] = [POD, ENDPOINT, TEMPLATE, NETWORK_VOLUME, GPU_TYPE, CLUSTER, GRAPHQL_ENDPOINT, SERVERLESS_DISCOUNT];
