-- 007_balance: the prepaid balance's history (issue 15, balance-and-queue.md §1). The platform keeps no history of
-- its balance; every sync records what it said, so runway and balance-per-day views have something to read.

-- raw_balance_observations: one row per balance read of an account (every sync, and `sync --source balance`),
-- as the platform answered it (GraphQL myself today).
create table raw_balance_observations (
    account          varchar not null,
    observed_at      timestamptz not null,      -- the platform's clock (its Date header) when the answer came
    balance          decimal(18,6) not null,    -- clientBalance, USD
    spend_per_hour   decimal(18,6) not null,    -- currentSpendPerHr, USD/h
    spend_limit      decimal(18,6) not null,    -- spendLimit, USD/h
    under_balance    boolean,                   -- underBalance (undocumented; null when the source does not know it)
    min_balance      decimal(18,6),             -- minBalance (undocumented; null when unknown)
    source           varchar not null,          -- what answered, e.g. 'GraphQL myself'
    missing_fields   varchar[] not null,        -- optional fields the source did not know on this read
    _load_id         varchar not null,
    _extracted_at    timestamptz not null
);

-- raw_balance_top_ups: one row per top-up (stripeReloadHistory), stored once: a top-up read again is not added
-- again.
create table raw_balance_top_ups (
    account          varchar not null,
    completed_at     timestamptz not null,      -- transactionCompletedAt
    amount           decimal(18,6) not null,    -- USD as the platform lists it
    type             varchar not null,          -- RELOAD | CREDIT | DEBIT | PAYOUT
    _load_id         varchar not null,          -- the load that first saw it
    _extracted_at    timestamptz not null
);
