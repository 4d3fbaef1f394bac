-- One row per cost_daily row, allocation category and value after splits: the rule that matched (1-based index,
-- null for the category's default), the value a split moved the amount from (split_from, null for direct cost), and
-- the amount in exact micro-dollars. A category's values add up to cost_daily's total exactly. It reads the table
-- fct_cost_allocated, which every writing session keeps equal to int_cost_allocated under the rules of the config
-- it wrote with (_meta_allocation_*).
create or replace view cost_allocated as
with facts as (
    select * from fct_cost_allocated
),

final as (
    -- the split bookkeeping and the subject key stay inside
    select * exclude (split, is_kept, subject_id) from facts
)

select * from final;
