# A gpuledger lake's cost_daily read by dask.dataframe: per family and per day, the exact sums
# (test/export/lake-engines.slow.test.ts). Usage: python read_lake_dask.py LAKE [LAKE…].
import sys

import dask.dataframe as dd
import pyarrow as pa

from lake_summary import print_summary

# the partition columns pinned to strings (dask would make them categories); amount stays decimal128(18, 6)[pyarrow]
HIVE = pa.schema([("account", pa.string()), ("family", pa.string()), ("month", pa.string())])

def cost_daily(lake):
    return dd.read_parquet(f"{lake}/cost_daily", dataset={"partitioning": {"flavor": "hive", "schema": HIVE}})

for lake in sys.argv[1:]:
    df = cost_daily(lake)
    families = df.groupby("family")["amount"].sum().compute()
    days = df.groupby("day")["amount"].agg(["sum", "count"]).compute()
    print_summary(
        "dask", lake, dict(df.dtypes.items()),
        dict(families.items()),
        dict(days["sum"].items()),
        dict(days["count"].items()),
    )
