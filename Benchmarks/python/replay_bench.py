"""The replay benchmark's requests through one requests.Session (one kept-alive connection),
each response checked as the Tincan session checks it: status 200 and the echoed value.

Usage: replay_bench.py BASE_URL COUNT -> prints {"checked": N}, the responses that passed.
"""
import json
import sys

import requests

base, count = sys.argv[1], int(sys.argv[2])
checked = 0
with requests.Session() as session:
    for index in range(count):
        if index % 2 == 0:
            response = session.get(f"{base}/get", params={"n": str(index)})
            if response.status_code == 200 and response.json()["args"]["n"] == str(index):
                checked += 1
        else:
            response = session.post(f"{base}/post", json={"n": index, "name": "item"})
            if response.status_code == 200 and response.json()["json"]["n"] == index:
                checked += 1
print(json.dumps({"checked": checked}))
