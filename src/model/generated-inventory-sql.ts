// The inventory staging views (stg_pods, stg_endpoints, …), generated from their documents' declarations
// (inventory-documents/): each reads its kind's versions (stg_inventory_versions_in) and maps the document field by
// field to typed, renamed columns. Part of generatedSqlFiles(), so the drift test covers them.
import { commentLines, MARK, quote, type GeneratedSqlFile } from './generated-sql-text.ts';
import { INVENTORY_DOCUMENTS, type InventoryDocumentDef, type InventoryField } from './inventory-documents/index.ts';

/** The field's value as text: `doc->>'name'` for a top-level key, `doc->>'$.a.b'` for a nested one. */
const text = (path: string) => `doc->>${quote(path.includes('.') ? `$.${path}` : path)}`;

export function fieldSql(f: InventoryField): string {
  if (f.commaList) return `list_filter(string_split(coalesce(${text(f.path)}, ''), ','), x -> trim(x) <> '')`;
  if (f.type === 'varchar[]') return `coalesce(json_extract_string(doc, ${quote(`$.${f.path}`)}), []::varchar[])`;
  const value = f.emptyIsNull ? `nullif(${text(f.path)}, '')` : text(f.path);
  return f.type === 'varchar' ? value : `try_cast(${value} as ${f.type})`;
}

function inventoryView(def: InventoryDocumentDef): GeneratedSqlFile {
  const line = (comment: string | undefined, sql: string) => `${comment ? `        -- ${comment}\n` : ''}        ${sql},`;
  const columns = [line(def.idComment, `id as ${def.idColumn}`), ...def.fields.map((f) => line(f.comment, `${fieldSql(f)} as ${f.column}`))];
  const sql = `${commentLines(def.rowIs)}

${MARK}
create or replace view ${def.view} as
with source as (
    select * from stg_inventory_versions_in(${quote(def.kind)})
),

renamed as (
    select
        account,
${columns.join('\n')}
        -- the version's columns (stg_inventory_versions_in)
        * exclude (account, id, doc),
    from source
)

select * from renamed;
`;
  return { path: `views/staging/${def.view}.sql`, text: sql };
}

export const inventoryViews = (): GeneratedSqlFile[] => INVENTORY_DOCUMENTS.map(inventoryView);
