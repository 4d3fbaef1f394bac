# A gpuledger lake's cost_daily read by polars: per family and per day, the exact sums (test/export/lake-engines.slow.test.ts).
# Usage: python read_lake_polars.py LAKE [LAKE…]. The part between the README markers is README.md's polars recipe.
import sys

from lake_summary import print_summary

# README: polars
import polars as pl

def cost_daily(lake):
    # account, family and month come from the folder names: pinned to strings (an account named 2024 stays "2024")
    return pl.scan_parquet(f"{lake}/cost_daily/**/*.parquet", hive_partitioning=True,
                           hive_schema={"account": pl.String, "family": pl.String, "month": pl.String})

def family_totals(lake):   # amount is Decimal(18, 6): the sums are exact Decimal(38, 6)
    return cost_daily(lake).group_by("family").agg(pl.col("amount").sum()).sort("family").collect()

def day_totals(lake):
    return cost_daily(lake).group_by("day").agg(pl.col("amount").sum(), pl.len().alias("rows")).sort("day").collect()
# end README

for lake in sys.argv[1:]:
    families = family_totals(lake)
    days = day_totals(lake)
    print_summary(
        "polars", lake, dict(cost_daily(lake).collect_schema()),
        dict(zip(families["family"], families["amount"])),
        dict(zip(days["day"], days["amount"])),
        dict(zip(days["day"], days["rows"])),
    )
