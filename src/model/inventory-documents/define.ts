// The shape of an inventory document's one declaration: which raw_inventory kind it is, what its stg_* view is called
// and what a row is, and its fields in view order – the view's SQL is generated from it (generated-inventory-sql.ts).

/** The SQL types a document field becomes; `varchar[]` reads every match of a `[*]` path as a list (empty, never null). */
export type FieldType = 'varchar' | 'integer' | 'boolean' | 'decimal(18,6)' | 'timestamptz' | 'varchar[]';

export interface InventoryField {
  column: string;
  /** The JSON path in the document, dotted without `$.`: `gpu.count`, `mounts.network[*].volumeId`. */
  path: string;
  type: FieldType;
  /** The API sends '' for "none" (GraphQL): read it as null. */
  emptyIsNull?: boolean;
  /** The one special reading: a comma-separated string of ids becomes a list (GraphQL's gpuIds). */
  commaList?: boolean;
  /** Why the column is read as it is – a line above it in the view. */
  comment?: string;
  /** The contract lets the field (or an object on its path: `gpu?`, `cpu?`) be absent from a document (billing-api-v2.md §3/§4); test/model/inventory-documents.test.ts holds every other path to the simulator. */
  mayBeAbsent?: boolean;
}

/** The REST route that lists the documents (billing-api-v2.md §3): `name` is what `--kind`/the client call it. */
export interface InventoryRoute {
  name: string;
  path: string;
  /** The answer's key holding the list: `{pods: […]}`. */
  key: string;
  query?: Readonly<Record<string, string>>;
}

export interface InventoryDocumentDef {
  /** raw_inventory.kind. */
  kind: string;
  view: string;
  /** None for the GraphQL documents (one query, graphql_endpoint and serverless_discount). */
  route?: InventoryRoute;
  /** The view's header: what a row is. */
  rowIs: string;
  /** The column the document's id becomes, and why it is kept as it is when that needs saying. */
  idColumn: string;
  idComment?: string;
  fields: readonly InventoryField[];
}

// `const`: a route's name stays its literal, so the client's list names are typed from the declarations
export const defineInventoryDocument = <const D extends InventoryDocumentDef>(def: D): D => def;
