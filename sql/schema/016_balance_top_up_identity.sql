-- 016_balance_top_up_identity: a top-up is known by when it completed, its type and its medium
-- (stripeReloadHistory, balance-and-queue.md §1) – never by its amount. A completed payment does not change; if the
-- platform ever lists one with another amount, the loader logs a restatement (_meta_restatements, source
-- 'balance-top-ups') and keeps the new amount in place of the old. Stores written before this migration may hold
-- two versions of one top-up (the amount was part of its identity): stg_balance_top_ups keeps the latest.
alter table raw_balance_top_ups add column medium varchar;  -- CARD, …; null when the platform did not say
