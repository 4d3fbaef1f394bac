# What every engine script prints for one lake, in one shape, so the test compares engines with DuckDB and each other:
# one JSON line {"engine", "lake", "schema", "rows", "families", "days", "day_rows"} with every amount an exact decimal
# string (format(Decimal, ".6f") is exact: no float ever holds a figure here).
import json
from decimal import Decimal


def money(value):
    if not isinstance(value, Decimal):
        # a float here would mean an engine lost the DECIMAL type: say so, never round it into a string
        raise TypeError(f"an amount came back as {type(value).__name__} ({value!r}), not Decimal")
    return format(value, ".6f")


def print_summary(engine, lake, schema, families, days, day_rows):
    print(json.dumps({
        "engine": engine,
        "lake": lake,
        "schema": {name: str(kind) for name, kind in schema.items()},
        "rows": sum(int(n) for n in day_rows.values()),
        "families": {str(k): money(v) for k, v in sorted(families.items())},
        "days": {str(k): money(v) for k, v in sorted(days.items())},
        "day_rows": {str(k): int(v) for k, v in sorted(day_rows.items())},
    }), flush=True)
