"""Times the reference JSON decoders on a file's bytes (read before timing): json.loads, orjson.loads
and pysimdjson's Parser.parse, each followed by the same capture Tincan makes (the name of the
record at INDEX), so every side both decodes and reads a value.

json.loads runs with Python's cyclic garbage collector on, as Python runs by default, and off;
orjson and pysimdjson run with it off, the fastest they can be made to go. A decoder that is not
installed is reported as null.

Usage: json_bench.py FILE ROUNDS INDEX
-> prints {"json_ns": N, "json_gc_off_ns": N, "orjson_ns": N|null, "simdjson_ns": N|null, "items": M, "capture": "..."}
"""
import gc
import json
import statistics
import sys
import time

path, rounds, index = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "rb") as handle:
    data = handle.read()


def median_ns(decode):
    samples = []
    result = None
    for _ in range(rounds):
        start = time.perf_counter_ns()
        value = decode(data)
        captured = value[index]["name"]
        items = len(value)
        samples.append(time.perf_counter_ns() - start)
        result = (items, str(captured))
        del value
    return int(statistics.median(samples)), result


results = {}
json_ns, (items, capture) = median_ns(json.loads)
results["json_ns"] = json_ns
# The rest run as fast as Python lets them: with the collector off, which otherwise runs again
# and again while hundreds of thousands of containers are made.
gc.disable()
results["json_gc_off_ns"], _ = median_ns(json.loads)
try:
    import orjson

    results["orjson_ns"], checked = median_ns(orjson.loads)
    assert checked == (items, capture), "orjson read something else"
except ImportError:
    results["orjson_ns"] = None
try:
    import simdjson

    parser = simdjson.Parser()
    results["simdjson_ns"], checked = median_ns(parser.parse)
    assert checked == (items, capture), "simdjson read something else"
except ImportError:
    results["simdjson_ns"] = None
results["items"] = items
results["capture"] = capture
print(json.dumps(results))
