-- At most one row: the latest sync (command sync or run) that had ended by $now, with its status (success, partial,
-- failed, interrupted) and errors – the data-quality rule alerts when it did not succeed.
select *
from rpt_runs
where command in ('sync', 'run')
    and status <> 'running'
    and started_at <= $now::timestamptz
order by started_at desc
limit 1;
