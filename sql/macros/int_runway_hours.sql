-- A scalar macro, the runway rule said once: the hours a balance lasts at a spend per hour – 0 when the balance is
-- already out ($0 or less), null when nothing is spent (it does not run out; a null is not a 0), else balance ÷
-- spend as DECIMAL(18,2).
create or replace macro int_runway_hours(balance, per_hour) as
    case
        when balance <= 0 then 0::decimal(18,2)
        when per_hour > 0 then (balance / per_hour)::decimal(18,2)
    end;
