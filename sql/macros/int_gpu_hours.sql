-- A scalar macro, the GPU-hour estimate said once: cost ÷ price per hour, both given in integer millionths
-- (micro-dollars), as DECIMAL(38,6) hours rounded half up at the sixth decimal, computed in integers so no float
-- touches it; null when the price is 0 or not known. What gpu_hours (and, over price × GPU count, running_hours) is in
-- int_gpu_hours_daily and focus_cost.
create or replace macro int_gpu_hours(cost_micros, price_micros) as
    case when price_micros > 0 then
        ((2 * cost_micros * 1000000 + price_micros) // (2 * price_micros))::decimal(38,0) * 0.000001::decimal(7,6)
    end;
