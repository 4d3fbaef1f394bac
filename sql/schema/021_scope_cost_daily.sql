-- 021_scope_cost_daily: the billed cost per account, UTC day and built-in scope (the account, a family, an endpoint,
-- a template, a GPU type) as a table, so unit costs divide by a row read rather than by cost_daily grouped again on
-- every read. A writing session refreshes it with the other tables computed from cost_daily (src/store/materialize.ts).

-- One row per account, UTC day and built-in scope with cost that day: the rows of int_builtin_scope_cost_daily.
create table fct_scope_cost_daily (
    account  varchar not null,
    day      date not null,
    scope    varchar not null,
    cost     decimal(38,6)
);
