-- A scalar macro: the names of the month-window amount columns of cost_month_windows, in its order – what a view
-- that sums a subject's windows picks with sum(columns(c -> list_contains(int_month_windows(), c))).
create or replace macro int_month_windows() as
    ['month_to_date', 'previous_month_to_date', 'previous_month', 'month_to_last_day', 'previous_month_to_last_day'];
