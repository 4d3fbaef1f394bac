-- One row per resource of $account that $0 would hurt (rpt_runway_at_risk): pods that lose their data first, then
-- pods that stop, then network volumes; the costliest first.
select
    resource_kind,
    resource_id,
    resource_name,
    risk,
    reason,
from rpt_runway_at_risk
where account = $account
order by case risk when 'lost' then 0 when 'stopped' then 1 else 2 end, hourly_cost desc nulls last, resource_id;
