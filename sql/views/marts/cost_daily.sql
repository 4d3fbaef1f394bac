-- One row per account, family, UTC day, component and resource, attributed and named as of the day's start. One
-- bucket size per (account, family, day), so nothing is counted twice: `day` buckets where they were extracted,
-- else `hour` buckets rolled up to the day. subject_id: the cost subject (int_cost_subjects). Report views read
-- this, not `cost`. It reads the table fct_cost_daily, which every writing session keeps equal to
-- int_cost_attributed_in at grain 'day' (src/transform/materialize.ts).
create or replace view cost_daily as
with facts as (
    select * from fct_cost_daily
),

final as (
    select * from facts
)

select * from final;
