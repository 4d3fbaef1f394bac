-- One row per cost_daily row whose direct value a split moves and per target of that split, with the target's share
-- (exact micro-dollars; the remainder goes by the largest-remainder method, so the shares of a row add up to its
-- amount); or one row with the amount kept where it was (is_kept) when a proportional split has no basis: all
-- targets had no direct cost in the account that UTC day.
create or replace view int_allocation_splits as
-- each read of int_allocation_direct has its own import CTE: DuckDB copies a CTE read twice in full, before any
-- filter applies, and a refresh of a few days filters by day
with direct as (
    select * from int_allocation_direct
),

basis as (
    select * from int_allocation_direct
),

splits as (
    select * from stg_allocation_splits
),

targets as (
    select * from stg_allocation_split_targets
),

-- the basis of proportional splits: each value's direct cost per account and UTC day (a net credit counts as 0)
value_days as (
    select category, account, day, value, greatest(sum(amount), 0) as amount,
    from basis
    group by all
),

-- the arithmetic runs on narrow rows – a cost row is its subject and day – and the names join back at the end:
-- the window sorts below carry a key, not a dozen names
moved as (
    select
        d.category,
        d.account,
        d.day,
        d.subject_id,
        d.value,
        d.rule,
        s.split,
        s.method,
        (d.amount * 1000000)::hugeint as amount_micros,
    from direct as d
    inner join splits as s
        on s.category = d.category and s.from_value = d.value
),

-- integer weights, so the shares are exact: micro-dollars, one each, or millionths of a percent
weighted as (
    select
        m.*,
        t.to_value,
        case m.method
            when 'even' then 1::hugeint
            when 'percent' then (t.percent * 1000000)::hugeint
            else coalesce((v.amount * 1000000)::hugeint, 0)
        end as weight,
    from moved as m
    inner join targets as t
        on t.category = m.category and t.split = m.split
    -- equalities only (the method is read in the weight above): a condition on one side alone would turn this
    -- into a nested-loop join, 30 s on a year of hourly billing instead of a hash join's fraction of a second
    left join value_days as v
        on v.category = m.category
        and v.account = m.account
        and v.day = m.day
        and v.value = t.to_value
),

totals as (
    select
        *,
        sum(weight) over (partition by category, split, subject_id, day) as total_weight,
    from weighted
),

-- floor of amount × weight / total, and the remainder that ranks who gets the micro-dollars left over
shared as (
    select
        *,
        ((amount_micros * weight) % total_weight + total_weight) % total_weight as remainder,
        (amount_micros * weight - ((amount_micros * weight) % total_weight + total_weight) % total_weight) // total_weight
            as floor_micros,
    from totals
    where total_weight > 0
),

ranked as (
    select
        *,
        amount_micros - sum(floor_micros) over by_row as leftover_micros,
        row_number() over (by_row order by remainder desc, to_value) as remainder_rank,
    from shared
    window by_row as (partition by category, split, subject_id, day)
),

split_rows as (
    select
        account,
        category,
        to_value as value,
        rule,
        value as split_from,
        split,
        false as is_kept,
        day,
        subject_id,
        ((floor_micros + case when remainder_rank <= leftover_micros then 1 else 0 end)::decimal(38,0) * 0.000001)::decimal(38,6)
            as amount,
    from ranked
    -- a target with no basis that day gets nothing: no row rather than a row of zero
    where floor_micros <> 0 or remainder_rank <= leftover_micros
),

kept_rows as (
    select distinct
        account,
        category,
        value,
        rule,
        null::varchar as split_from,
        split,
        true as is_kept,
        day,
        subject_id,
        (amount_micros::decimal(38,0) * 0.000001)::decimal(38,6) as amount,
    from totals
    where total_weight <= 0
),

subjects as (
    select * from int_cost_subjects
),

final as (
    select
        r.account,
        r.category,
        r.value,
        r.rule,
        r.split_from,
        r.split,
        r.is_kept,
        r.day,
        s.family,
        s.component,
        s.resource_id,
        s.resource_name,
        s.template_name,
        s.endpoint_name,
        s.gpu_type_name,
        r.subject_id,
        r.amount,
    from (
        select * from split_rows
        union all
        select * from kept_rows
    ) as r
    inner join subjects as s
        on s.subject_id = r.subject_id
)

select * from final;
