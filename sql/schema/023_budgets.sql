-- 023_budgets: the budgets of the config (alerts.budgets, issue 39 §1) as data, so rpt_budgets shows each budget
-- against its actual and forecast spend to SQL users, the report and serve alike. Like the allocation rules, the
-- content is replaced from the config by each writing session (src/alert/load-budgets.ts), and a reader whose
-- config differs answers with its own in a temp table of the same name; it holds no history of its own.

-- _meta_budgets: one row per budget, its scope as the config says it (null: any).
create table _meta_budgets (
    name        varchar not null primary key,
    period      varchar not null,               -- month | week (ISO, Monday to Sunday), UTC
    amount      decimal(18,2) not null,         -- USD per period
    account     varchar,
    family      varchar,
    template    varchar,                        -- a template's id or name
    endpoint    varchar,                        -- an endpoint's id or name
    gpu_type    varchar,                        -- a GPU type's id or name
    category    varchar,                        -- with value: one allocation value's share
    value       varchar,
    thresholds  double[] not null,              -- percent of amount, ascending
    loaded_at   timestamptz
);
