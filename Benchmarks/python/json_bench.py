"""Times json.loads on a file's bytes (read before timing), as the reference for Tincan's decoder.

Python's cyclic garbage collector runs again and again while json.loads builds hundreds of
thousands of containers, so the median is taken both as Python runs by default and with the
collector off, the fastest Python can be made to go.

Usage: json_bench.py FILE ROUNDS -> prints {"median_ns": N, "median_ns_gc_off": N, "items": M}
"""
import gc
import json
import statistics
import sys
import time

path, rounds = sys.argv[1], int(sys.argv[2])
with open(path, "rb") as handle:
    data = handle.read()


def median_ns():
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        value = json.loads(data)
        samples.append(time.perf_counter_ns() - start)
        items = len(value)
        del value
    return int(statistics.median(samples)), items


default_ns, items = median_ns()
gc.disable()
gc_off_ns, _ = median_ns()
print(json.dumps({"median_ns": default_ns, "median_ns_gc_off": gc_off_ns, "items": items}))
