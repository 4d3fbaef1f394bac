# A gpuledger lake's cost_daily read by Ray Data in local mode – the code a Ray cluster runs, ray.init(address=…)
# instead – per family and per day, the exact sums (test/export/lake-engines.slow.test.ts). Usage: python
# read_lake_ray.py LAKE [LAKE…]: one ray.init for all of them (Ray's start is most of its time). The part between the
# README markers is README.md's Ray recipe.
import sys
from collections import defaultdict
from decimal import Decimal

from lake_summary import print_summary

# README: Ray Data
import ray
from ray.data.datasource.partitioning import Partitioning

ray.init(num_cpus=1, include_dashboard=False)   # on a cluster: ray.init(address="auto")

def cost_daily(lake):
    # account, family and month come from the folder names: pinned to strings (an account named 2024 stays "2024")
    return ray.data.read_parquet(f"{lake}/cost_daily",
                                 partitioning=Partitioning("hive", field_types={"account": str, "family": str, "month": str}))

def block_sums(block):   # each block (a pyarrow.Table) sums its rows on a worker; decimal128 sums stay exact
    return block.group_by(["family", "day"]).aggregate([("amount", "sum"), ("amount", "count")])

def family_day_sums(lake):   # [{"family", "day", "amount_sum": Decimal, "amount_count"}], one per block and group
    return cost_daily(lake).map_batches(block_sums, batch_format="pyarrow").take_all()
# end README

# the blocks' sums added in the driver (a Ray groupby would shuffle through aggregator actors, which one local CPU
# cannot host beside the read)
for lake in sys.argv[1:]:
    families, days, day_rows = defaultdict(Decimal), defaultdict(Decimal), defaultdict(int)
    for part in family_day_sums(lake):
        families[part["family"]] += part["amount_sum"]
        days[part["day"]] += part["amount_sum"]
        day_rows[part["day"]] += part["amount_count"]
    schema = cost_daily(lake).schema()
    print_summary("ray", lake, dict(zip(schema.names, schema.types)), families, days, day_rows)
ray.shutdown()
