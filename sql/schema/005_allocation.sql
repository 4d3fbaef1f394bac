-- 005_allocation: the allocation rules of the config (issue 13) as data, so the views apply the current rules to
-- all history. gpuledger replaces the content of these tables from the config every time it opens the file for
-- writing (src/allocation/load-rules.ts); they hold no history of their own.

-- _meta_allocation_categories: one row per category (team, project, cost center…).
create table _meta_allocation_categories (
    category       varchar not null,
    default_value  varchar not null,           -- the value of cost no rule matches
    loaded_at      timestamptz not null
);

-- _meta_allocation_rules: one row per rule, rule = its 1-based position in the category's list (first match wins).
create table _meta_allocation_rules (
    category  varchar not null,
    rule      integer not null,
    value     varchar not null
);

-- _meta_allocation_rule_globs: one row per glob of a rule's match key; a key holds when any of its globs matches,
-- a rule when all of its keys hold.
create table _meta_allocation_rule_globs (
    category   varchar not null,
    rule       integer not null,
    match_key  varchar not null,               -- account | family | component | resource | template | endpoint | gpuType | dataCenter
    glob_text  varchar not null                -- * any run of characters, ? one character
);

-- _meta_allocation_splits: one row per split, split = its 1-based position in the category's list.
create table _meta_allocation_splits (
    category    varchar not null,
    split       integer not null,
    from_value  varchar not null,
    method      varchar not null               -- proportional | even | percent
);

-- _meta_allocation_split_targets: one row per value a split moves cost to.
create table _meta_allocation_split_targets (
    category  varchar not null,
    split     integer not null,
    to_value  varchar not null,
    percent   decimal(9,6)                     -- only for method percent; the targets' percentages sum to 100
);
