import { defineInventoryDocument } from './define.ts';

export const SERVERLESS_DISCOUNT = defineInventoryDocument({
  kind: 'serverless_discount',
  view: 'stg_serverless_discounts',
  rowIs: "One row per version of the account's Serverless discount (GraphQL serverlessDiscount, billing-api-v2.md §4): stored and labelled, never used to re-price (whether the factor is a multiplier or a fraction off is undocumented).",
  idColumn: 'discount_id',
  fields: [
    { column: 'discount_factor', path: 'discountFactor', type: 'decimal(18,6)' },
    { column: 'discount_type', path: 'type', type: 'varchar' },
    { column: 'expires_at', path: 'expirationDate', type: 'timestamptz' },
  ],
});
