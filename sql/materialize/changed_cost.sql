-- Whether a row of fct_cost_daily – its account, family, resource and day – is one that _meta_cost_changes names
-- (an account and family, one resource or all of them, a range of days with null for unbounded): the rows a refresh
-- removes and computes again. Call it with qualified columns (f.account, …): an unqualified name inside the
-- subquery would bind to the mark's own column of that name, and every mark would match every row.
create or replace temp macro changed_cost(row_account, row_family, row_resource_id, row_day) as exists (
    select 1
    from _meta_cost_changes as c
    where c.account = row_account
        and c.family = row_family
        and (c.resource_id is null or c.resource_id = row_resource_id)
        and (c.from_day is null or row_day >= c.from_day)
        and (c.to_day is null or row_day < c.to_day)
)
