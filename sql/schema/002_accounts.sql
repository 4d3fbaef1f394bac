-- 002_accounts: one row per account gpuledger has synced – where its data comes from, and whether that source is
-- the built-in simulator (reports and alerts label simulated data as such; a real key never appears here).
create table _meta_accounts (
    account         varchar primary key,
    api_url         varchar not null,
    simulated       boolean not null default false,
    first_sync_at   timestamptz not null,
    last_sync_at    timestamptz not null
);
