"""Python's side of the query-string benchmark (run by tincan-bench in the same run).

Reads the inputs tincan-bench wrote, builds the same query string with the standard library
(urllib.parse.urlencode with quote, safe "/?"), after flattening nested parameters by
AFNetworking's rules, and reports median timings. It also writes its outputs so that
tincan-bench can check both sides produced the same bytes.
"""
import json
import sys
import time
from urllib.parse import quote, urlencode


def scalar(value):
    if value is True:
        return "1"
    if value is False:
        return "0"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def pairs(key, value, out):
    if isinstance(value, dict):
        for sub in sorted(value):
            pairs(f"{key}[{sub}]" if key is not None else sub, value[sub], out)
    elif isinstance(value, list):
        for element in value:
            pairs(f"{key}[]", element, out)
    elif value is None:
        out.append((key, None))
    else:
        out.append((key, scalar(value)))
    return out


def encode(parameters):
    flat = pairs(None, parameters, [])
    with_values = [(k, v) for k, v in flat if v is not None]
    if len(with_values) == len(flat):
        return urlencode(flat, quote_via=quote, safe="/?")
    return "&".join(quote(k, safe="/?") if v is None else quote(k, safe="/?") + "=" + quote(v, safe="/?") for k, v in flat)


def median_ns(function, argument, rounds):
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        function(argument)
        samples.append(time.perf_counter_ns() - start)
    samples.sort()
    return samples[len(samples) // 2]


def main():
    inputs = json.load(open(sys.argv[1], encoding="utf-8"))
    rounds = int(sys.argv[3])
    nested = inputs["nested"]
    text = inputs["text"]
    outputs = {"nested": encode(nested), "text": quote(text, safe="/?")}
    json.dump(outputs, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
    print(json.dumps({
        "nested_ns": median_ns(encode, nested, rounds),
        "text_ns": median_ns(lambda s: quote(s, safe="/?"), text, rounds),
    }))


main()
