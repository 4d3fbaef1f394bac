-- One row per budget of the config (_meta_budgets, alerts.budgets): its period, amount, scope and thresholds.
-- Staged as stored: the table is gpuledger's own, already named and typed as the views read it.
create or replace view stg_budgets as
with source as (
    select * from _meta_budgets
),

final as (
    select * from source
)

select * from final;
