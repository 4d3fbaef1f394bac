import { defineInventoryDocument } from './define.ts';

export const TEMPLATE = defineInventoryDocument({
  kind: 'template',
  view: 'stg_templates',
  route: { name: 'templates', path: '/v2/templates', key: 'templates' },
  rowIs: 'One row per version of a template (GET /v2/templates, billing-api-v2.md §3): typed and renamed. Versions tile time from -infinity to infinity.',
  idColumn: 'template_id',
  fields: [
    { column: 'template_name', path: 'name', type: 'varchar' },
    { column: 'image', path: 'image', type: 'varchar' },
    { column: 'category', path: 'category', type: 'varchar' },
    { column: 'is_serverless', path: 'serverless', type: 'boolean' },
    { column: 'is_public', path: 'public', type: 'boolean' },
    { column: 'disk_gb', path: 'disk', type: 'integer' },
  ],
});
