-- 022_account_billing: how each account pays, as its config says (accounts[].billing): 'prepaid', 'postpaid'
-- (invoiced monthly: the balance reads $0 or below and nothing is suspended) or 'auto' (decided from the balance
-- observations, int_runway_billing_model). Written on every sync; rows synced before this column read 'auto'.
alter table _meta_accounts add column billing varchar default 'auto';
