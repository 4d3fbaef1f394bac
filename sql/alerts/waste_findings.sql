-- One row per rpt_waste finding that costs at least $min_monthly_cost a month, most expensive first.
select *
from rpt_waste
where monthly_cost >= $min_monthly_cost::decimal(18,2)
order by monthly_cost desc, finding_id;
