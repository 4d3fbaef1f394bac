// The SQL that restates the cost model, generated from it (STYLE.md §16): the billing_* staging views (a raw table's
// columns), int_billing_records (which amount column becomes which component of which family), int_aggregate_amounts
// (the aggregate route's columns per family and component), dim_cost_component (the words for families and
// components; rpt_spend_daily_by_family, one column per family, is generated-report-sql.ts). The files are checked in,
// so SQL stays greppable and reviewable; test/model/generated-sql.slow.test.ts
// regenerates them and names the source and field of any line that differs. Regenerate: npm run sql:generate.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BILLING_SOURCE_DEFS, FAMILY_SOURCE_DEFS, type AmountDef, type BillingSourceDef } from './billing-sources/index.ts';
import { COMPONENT_LABELS, COST_FAMILIES, FAMILIES, type CostComponent } from './cost-families.ts';
import { inventoryViews } from './generated-inventory-sql.ts';
import { spendDailyByFamily } from './generated-report-sql.ts';
import { commentLines, MARK, quote, type GeneratedSqlFile } from './generated-sql-text.ts';

/** The comment that ends an amount's line: which declaration it comes from, so a wrong line names its field. */
const origin = (def: BillingSourceDef, a: AmountDef) => `-- ${def.source}.${a.field}${a.target ? ` → ${a.target[0]}/${a.target[1]}` : ''}`;

/** A billing route's short name, raw_billing_pods → pods: its staging view is billing_<it>, a union view's CTE <it>. */
const shortName = (def: BillingSourceDef) => def.table.replace(/^raw_billing_/, '');

function stagingView(def: BillingSourceDef): GeneratedSqlFile {
  const name = `billing_${shortName(def)}`;
  const columns = def.columns.filter((c) => !c.startsWith('_'));
  const text = `${commentLines(`${def.rowIs} (${def.path}): the latest version the API returned for that bucket (re-reads replace, never append).\nPublic interface (DESIGN.md): columns and names are stable.`)}

${MARK}
create or replace view ${name} as
with source as (
    select * from ${def.table}
),

final as (
    select
${columns.map((c) => `        ${c},`).join('\n')}
    from source
)

select * from final;
`;
  return { path: `views/staging/${name}.sql`, text };
}

/** Every component some family bills, in a stable order: the wide columns of int_billing_records. */
export function componentColumns(): CostComponent[] {
  const seen = new Set<CostComponent>();
  for (const def of FAMILY_SOURCE_DEFS) for (const a of def.amounts) if (a.target) seen.add(a.target[1]);
  return (Object.keys(COMPONENT_LABELS) as CostComponent[]).filter((c) => seen.has(c));
}

/** A view over one select per family route: an import CTE per route, `unioned` (the selects joined by `union`), `final`. */
function familyUnionView(view: string, header: string, selects: string[], union: string, final: string): string {
  const imports = FAMILY_SOURCE_DEFS.map((def) => `${shortName(def)} as (\n    select * from billing_${shortName(def)}\n),`);
  return `${commentLines(header)}

${MARK}
create or replace view ${view} as
with ${imports.join('\n\n')}

unioned as (
${selects.join(union)}
),

final as (
${final}
)

select * from final;
`;
}

function billingRecords(): GeneratedSqlFile {
  const selects = FAMILY_SOURCE_DEFS.map((def) => {
    const id = def.idColumn ? `${def.idColumn} as resource_id` : 'null::varchar as resource_id';
    const amounts = def.amounts.filter((a) => a.target).map((a) => `        ${a.column} as ${a.target![1]}, ${origin(def, a)}`);
    return `    select
        account, ${quote(def.family!)} as family, bucket_size, start_time, end_time, ${id},
${amounts.join('\n')}
    from ${shortName(def)}`;
  });
  const components = componentColumns();
  const text = familyUnionView(
    'int_billing_records',
    `One row per record of the family billing routes (${FAMILY_SOURCE_DEFS.map((d) => d.source).join(', ')}) in one wide shape: the family's amount components side by side (${components.join(', ')}), null where a family has no such component. Every extracted bucket size; the aggregate route is not a family (it only reconciles: int_aggregate_amounts, rpt_reconciliation).`,
    selects,
    '\n    union all by name\n',
    `    select
        account,
        family,
        bucket_size,
        start_time as bucket_start,
        end_time as bucket_end,
        resource_id,
${components.map((c) => `        ${c}::decimal(18,6) as ${c},`).join('\n')}
    from unioned`,
  );
  return { path: 'views/intermediate/int_billing_records.sql', text };
}

// long form per family straight from its billing_* view: only the family's own components become rows (an UNPIVOT of
// the wide int_billing_records makes a row per null component first, and costs half as much again on every query)
function costRecords(): GeneratedSqlFile {
  const selects = FAMILY_SOURCE_DEFS.map((def) => {
    const id = def.idColumn ? `${def.idColumn} as resource_id` : 'null::varchar as resource_id';
    const entries = def.amounts
      .filter((a) => a.target)
      .map((a) => `            {'component': ${quote(a.target![1])}, 'amount': ${a.column}}, ${origin(def, a)}`);
    return `    select
        account, ${quote(def.family!)} as family, bucket_size, start_time as bucket_start, end_time as bucket_end, ${id},
        unnest([
${entries.join('\n')}
        ], recursive := true),
    from ${shortName(def)}`;
  });
  const text = familyUnionView(
    'int_cost_records',
    `One row per family billing record and non-zero amount component, at every extracted bucket size, before attribution: the long form of the family routes (totalAmount is the sum of the components, billing-api-v2.md §2, so it is not a row).`,
    selects,
    '\n    union all\n',
    `    select
        account,
        family,
        component,
        bucket_size,
        bucket_start,
        bucket_end,
        resource_id,
        amount::decimal(18,6) as amount,
    from unioned
    where amount <> 0`,
  );
  return { path: 'views/intermediate/int_cost_records.sql', text };
}

function aggregateAmounts(): GeneratedSqlFile {
  const def = BILLING_SOURCE_DEFS.aggregate;
  const entries = def.amounts
    .filter((a) => a.target)
    .map((a) => `            {'family': ${quote(a.target![0])}, 'component': ${quote(a.target![1])}, 'amount': ${a.column}}, ${origin(def, a)}`);
  const text = `${commentLines(`One row per bucket of the aggregated billing route (${def.path}), family and component: the amount the aggregate bills for it (what rpt_reconciliation compares with the family routes).`)}

${MARK}
create or replace view int_aggregate_amounts as
with aggregate_records as (
    select * from billing_aggregate
),

final as (
    select
        account,
        bucket_size,
        start_time as bucket_start,
        end_time as bucket_end,
        unnest([
${entries.join('\n')}
        ], recursive := true),
    from aggregate_records
)

select * from final;
`;
  return { path: 'views/intermediate/int_aggregate_amounts.sql', text };
}

function costComponents(): GeneratedSqlFile {
  const rows: string[] = [];
  for (const def of FAMILY_SOURCE_DEFS) {
    const family = COST_FAMILIES[def.family!];
    for (const a of def.amounts.filter((x) => x.target)) {
      const [fam, component] = a.target!;
      const values = [fam, component, def.source, a.field, a.column]
        .map(quote)
        .concat(String(FAMILIES.indexOf(fam) + 1))
        .concat([family.label, family.resourceType, family.focusCategory, family.focusSubcategory, COMPONENT_LABELS[component]].map(quote));
      rows.push(`        (${values.join(', ')}), ${origin(def, a)}`);
    }
  }
  const text = `${commentLines(`One row per cost family and amount component: the family route (source) and its amount field and column that bill it, and the words people read for them – family_label (FOCUS ServiceName, legends), resource_type, the FOCUS service category and subcategory, component_label – with family_order, the order reports show families in.`)}

${MARK}
create or replace view dim_cost_component as
with components as (
    select * from (values
${rows.join('\n').replace(/\), --([^\n]*)$/, ') --$1')}
    ) as t(
        family, component, source, field, column_name, family_order, family_label, resource_type,
        focus_service_category, focus_service_subcategory, component_label
    )
),

final as (
    select * from components
)

select * from final;
`;
  return { path: 'views/marts/dim_cost_component.sql', text };
}

function costInputs(): GeneratedSqlFile {
  const selects = FAMILY_SOURCE_DEFS.map(
    (def) => `    select account, ${quote(def.family!)} as family, count(*) as record_count, sum(total_amount) as total_amount,
    from ${def.table}
    where bucket_size in ('day', 'hour')
    group by account`,
  );
  const text = `${commentLines(`One row per account and family billed in day or hour buckets: how many records the raw tables hold and their total – what _meta_cost_inputs compares with, to notice a change to fct_cost_daily's inputs that no load marked. Straight from the raw tables (total_amount), so that a refresh with nothing to do costs a scan of two columns.`)}

${MARK}
with counts as (
${selects.join('\n    union all\n')}
),

final as (
    select
        account,
        family,
        record_count,
        coalesce(total_amount, 0)::decimal(38,6) as total_amount,
    from counts
)

select * from final
`;
  return { path: 'materialize/cost_inputs.sql', text };
}

/** Every generated file, with the text the cost model gives it now. */
export function generatedSqlFiles(): GeneratedSqlFile[] {
  return [...Object.values(BILLING_SOURCE_DEFS).map(stagingView), billingRecords(), costRecords(), aggregateAmounts(), costComponents(), costInputs(), spendDailyByFamily(), ...inventoryViews()];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const sqlDir = fileURLToPath(new URL('../../sql/', import.meta.url));
  for (const f of generatedSqlFiles()) {
    writeFileSync(join(sqlDir, f.path), f.text);
    process.stdout.write(`wrote sql/${f.path}\n`);
  }
}
