-- One row per allocation category whose rules the database holds: its default value, how many rules and splits,
-- when a writing gpuledger command last changed them (written_at; null in a gpuledger reader answering with other
-- rules from its config) and a hash of the rules. cost_allocated, as any DuckDB client reads it, was computed under
-- these; a gpuledger reader whose config has other rules answers with its own.
create or replace view rpt_allocation_rules as
with categories as (
    select * from dim_allocation_category
),

final as (
    select
        category,
        default_value,
        rule_count,
        split_count,
        written_at,
        rules_hash,
    from categories
)

select * from final;
