-- A scalar macro, the change rule said once: how much amount_now differs from amount_before, in percent of
-- amount_before, rounded to 4 decimals as DECIMAL(18,4) – null when there was nothing before (no change from zero
-- is a percentage; a null is not a 0). What every change_pct column of the marts and report views is.
create or replace macro int_change_pct(amount_now, amount_before) as
    case
        when amount_before <> 0
            then round((amount_now - amount_before) / amount_before * 100, 4)::decimal(18,4)
    end;
