-- A scalar macro, the unit-cost rule said once: cost ÷ quantity, both given in integer millionths (micro-dollars,
-- micro-units), as DECIMAL(38,9) rounded half up at the ninth decimal, computed in integers so no float touches it;
-- null when the quantity is 0 or not known. What unit_cost is in unit_cost_daily and unit_cost_week.
create or replace macro int_unit_ratio(cost_micros, quantity_micros) as
    case when quantity_micros > 0 then
        ((2 * cost_micros * 1000000000 + quantity_micros) // (2 * quantity_micros))::decimal(38,0) * 0.000000001::decimal(10,9)
    end;
