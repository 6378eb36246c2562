"""A bounded fuzz of the JSON API (issue 16): no request gets a 5xx or leaves a traceback in the log.

Two kinds of request, sent to the Flask test client (the same application `adjudicator serve` runs):

- schema fuzz: for every operation of the OpenAPI document, bodies drawn from its request schema (valid shapes
  with hostile values) and bodies that break it (wrong types, missing and unknown members, other media types);
- mutation of real states: the opening state of every shipped variant (standard, arctic, arctic2019, arctica,
  arctic-race) and the states after a few played turns, each changed at one place at a time (every member
  and item, to every value of a hostile list: wrong types, absurd numbers such as a year of 5,000 digits,
  1e308, Infinity and NaN, huge and empty strings, deep and wide containers, a member removed or added), sent
  to adjudicate, legal orders, parse and render (with malformed `results` too).

    python benchmarks/fuzz_api.py --requests 50000 --seed 1

It prints the number of requests, the status codes, the number of 5xx and of tracebacks, and the slowest
request; the exit status is 1 when any 5xx or traceback was seen.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from api import create_app  # noqa: E402
from api.schemas import SCHEMAS, openapi_document  # noqa: E402

VARIANTS = ("standard", "arctic", "arctic2019", "arctica", "arctic-race")
BIG_INT = "1" * 5000  # written into the JSON text as a number: a year with 5,000 digits
HOSTILE: list[Any] = [
    None, True, False, 0, -1, 2 ** 63, -(2 ** 63), 1e308, -1e308, 0.5, "", " ", "x" * 10_000, "\u0000", "🧊",
    "Fall 2010 Movement", "A Par", [], {}, [None], [[[[[[]]]]]], {"a": {"b": {"c": {}}}}, list(range(300)),
    {str(i): i for i in range(300)}, ["A Par"] * 200,
]
RAW_NUMBERS = [BIG_INT, "-" + BIG_INT, "1e999", "-1e999", "Infinity", "-Infinity", "NaN", "1" + "0" * 400 + ".5"]
_RAW = "\u0001raw:"  # marks a value written into the JSON text as it is (numbers Python's json cannot write)


@dataclass
class Stats:
    """What the fuzz saw."""

    requests: int = 0
    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    tracebacks: int = 0
    slowest: tuple[float, str] = (0.0, "")
    seconds: float = 0.0
    by_path: dict[str, list[float]] = field(default_factory=dict)  # path -> [requests, seconds]

    def report(self) -> str:
        """The figures, as printed."""
        codes = ", ".join(f"{k}: {v}" for k, v in sorted(self.statuses.items()))
        return (f"requests: {self.requests} in {self.seconds:.1f} s ({self.requests / max(self.seconds, 1e-9):.0f}/s)\n"
                f"statuses: {codes}\n5xx: {len(self.server_errors)}\ntracebacks: {self.tracebacks}\n"
                f"slowest: {self.slowest[0] * 1000:.0f} ms ({self.slowest[1][:100]})\n"
                + "\n".join(f"  {path}: {int(n)} requests, {t / n * 1000:.1f} ms each"
                            for path, (n, t) in sorted(self.by_path.items(), key=lambda kv: -kv[1][0])))


class _Tracebacks(logging.Handler):
    """Counts log records that carry an exception (the API logs every unexpected error with its traceback)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.count += 1


def _dumps(body: Any) -> str:
    """JSON text, with the raw markers written as bare number tokens (`1e999`, `NaN`, 5,000 digits)."""
    return _RAW_TOKEN.sub(lambda m: m.group(1), json.dumps(body, allow_nan=True))


_RAW_TOKEN = re.compile(r'"\\u0001raw:([^"]*)"')  # one unbounded class, ended by a quote: linear


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON value (members and items), the value itself first."""
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value[:6]):  # the first items of a long list stand for the rest
            yield from _paths(v, prefix + (i,))


def _replace(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _replace(copy[path[0]], path[1:], new)
    return copy


def _remove(value: Any, path: tuple) -> Any:
    if len(path) == 1:
        copy = dict(value) if isinstance(value, dict) else list(value)
        del copy[path[0]]
        return copy
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = _remove(copy[path[0]], path[1:])
    return copy


def _states(client: Any) -> list[dict]:
    """Each variant's opening state, and the states after one and two turns (orders from the legal lists, or
    none for the games without them)."""
    out = []
    for name in VARIANTS:
        state = client.get(f"/v1/variants/{name}/start").get_json()
        out.append(state)
        for _ in range(2):
            legal = client.post("/v1/orders/legal", json={"state": state})
            orders: dict[str, list[str]] = {}
            if legal.status_code == 200:
                for power, units in legal.get_json()["powers"].items():
                    for unit, options in units.items():
                        if options and unit not in ("builds", "removals"):
                            orders.setdefault(power, []).append(options[min(1, len(options) - 1)])
            r = client.post("/v1/adjudicate", json={"state": state, "orders": orders})
            if r.status_code != 200:
                break
            state = r.get_json()["next_state"]
            out.append(state)
    return out


def _from_schema(schema: dict, rng: random.Random, depth: int = 0) -> Any:
    """A value of a request schema's shape, its leaves drawn from the hostile list now and then."""
    if "$ref" in schema:
        return _from_schema(SCHEMAS[schema["$ref"].rsplit("/", 1)[1]], rng, depth)
    if rng.random() < 0.1 or depth > 4:
        return rng.choice(HOSTILE + [_RAW + n for n in RAW_NUMBERS])
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if "oneOf" in schema:
        return _from_schema(rng.choice(schema["oneOf"]), rng, depth)
    kind = schema.get("type")
    kind = rng.choice(kind) if isinstance(kind, list) else kind
    if kind == "string":
        return rng.choice(["", "standard", "arctic", "France: A Par - Bur", "x" * rng.randint(0, 200),
                           "".join(chr(rng.randint(0, 0x2FFF)) for _ in range(rng.randint(0, 30)))])
    if kind == "integer":
        return rng.choice([0, -1, 200, 4000, 10 ** 6, _RAW + BIG_INT])
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "array":
        return [_from_schema(schema.get("items", {}), rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == "object":
        props = schema.get("properties", {})
        out = {k: _from_schema(v, rng, depth + 1) for k, v in props.items()
               if k in schema.get("required", ()) or rng.random() < 0.5}
        if rng.random() < 0.1:
            out[rng.choice(["extra", "", "state"])] = rng.choice(HOSTILE)
        return out
    return rng.choice(HOSTILE)


_OPERATIONS = {  # path -> request schema
    "/v1/adjudicate": "AdjudicateRequest", "/v1/orders/parse": "ParseRequest", "/v1/orders/legal": "LegalRequest",
    "/v1/render": "RenderRequest", "/v1/datc": "DatcRequest",
}


_WEIGHTS = {"/v1/render": 1}  # a picture costs several requests' time: drawn 10 times less often


def _requests(client: Any, rng: random.Random, draw: bool = True) -> Iterator[tuple[str, str, str, str]]:
    """(method, path, content type, body) forever: schema fuzz and state mutations interleaved."""
    states = _states(client)
    doc = openapi_document()
    gets = [p for p, ops in doc["paths"].items() if "get" in ops]
    mutations = []
    for state in states:
        for path in _paths(state):
            if path == ():
                continue
            mutations.append((state, path))
    rng.shuffle(mutations)
    step = 0
    while True:
        step += 1
        roll = rng.random()
        if roll < 0.25:  # schema fuzz of every operation
            weights = [_WEIGHTS.get(p, 10) if draw or p != "/v1/render" else 0 for p in _OPERATIONS]
            path = rng.choices(list(_OPERATIONS), weights=weights)[0]
            body = _from_schema({"$ref": f"#/components/schemas/{_OPERATIONS[path]}"}, rng)
            if path == "/v1/render" and isinstance(body, dict):
                body["format"] = "svg"  # PNG drawing costs 50x more; the code paths up to drawing are the same
            ctype = rng.choice(["application/json"] * 8 + ["text/plain", "application/x-www-form-urlencoded"])
            yield "POST", path, ctype, _dumps(body)
        elif roll < 0.28:
            name = rng.choice(list(VARIANTS) + ["", "x" * 300, "STANDARD", " arctic ", "..", "%00", "🧊"])
            path = rng.choice(gets).replace("{name}", name)
            yield "GET", path, "", ""
        else:  # one state changed at one place
            state, where = mutations[step % len(mutations)]
            value = rng.choice(HOSTILE + [_RAW + n for n in RAW_NUMBERS] + ["<remove>", "<add>"])
            if value == "<remove>":
                mutated = _remove(state, where)
            elif value == "<add>":
                mutated = _replace(state, where[:-1], {**_get(state, where[:-1]), "extra": 1}) \
                    if isinstance(_get(state, where[:-1]), dict) else state
            else:
                mutated = _replace(state, where, value)
            # a drawing costs ~50 requests' time (matplotlib): one request in 60 draws, the rest judge or list
            endpoint = rng.choice(["/v1/adjudicate"] * 30 + ["/v1/orders/legal"] * 20 + ["/v1/orders/parse"] * 9
                                  + ["/v1/render"] * draw)
            body: dict[str, Any] = {"state": mutated}
            if endpoint == "/v1/orders/parse":
                body = {"variant": state["variant"], "orders": "", "state": mutated}
            elif endpoint == "/v1/render":
                body["format"] = "svg"
                body["results"] = rng.choice([None, [], [{}], [{"order": 1, "status": None}], {"orders": "x"},
                                              [{"order": "A Par - Bur", "status": "succeeds", "reason": "",
                                                "unit": {"type": "Z", "location": 5}}],
                                              {"orders": [{"order": "F Bre - Mid", "status": [], "reason": {}}]}])
                if body["results"] is None:
                    del body["results"]
            yield "POST", endpoint, "application/json", _dumps(body)


def _get(value: Any, path: tuple) -> Any:
    for p in path:
        value = value[p]
    return value


def run(requests: int, seed: int = 1, draw: bool = True, progress: int = 0) -> Stats:
    """Send `requests` requests (`draw` False: no pictures, which cost 50 requests' time each); the figures."""
    app = create_app()
    client = app.test_client()
    counter = _Tracebacks()
    for name in ("adjudicator.api", app.logger.name, "werkzeug"):
        logging.getLogger(name).addHandler(counter)
    logging.getLogger("adjudicator.api").propagate = False  # counted, not printed 50,000 times
    stats = Stats()
    rng = random.Random(seed)
    start = time.perf_counter()
    for method, path, ctype, body in _requests(client, rng, draw):
        if stats.requests >= requests:
            break
        t = time.perf_counter()
        if method == "GET":
            r = client.get(path)
        else:
            r = client.post(path, data=body.encode("utf-8", "surrogatepass"), content_type=ctype)
        took = time.perf_counter() - t
        stats.requests += 1
        stats.statuses[r.status_code] += 1
        key = path if method == "POST" else "GET " + path.split("/")[1] + ("/variants" if "variants" in path else "")
        totals = stats.by_path.setdefault(key, [0, 0.0])
        totals[0] += 1
        totals[1] += took
        if took > stats.slowest[0]:
            stats.slowest = (took, f"{method} {path} {body[:160]}")
        if progress and stats.requests % progress == 0:
            print(f"{stats.requests} requests, {len(stats.server_errors)} 5xx, {counter.count} tracebacks, "
                  f"{time.perf_counter() - start:.0f} s", flush=True)
        if r.status_code >= 500:
            stats.server_errors.append(f"{r.status_code} {method} {path} {body[:300]} -> {r.get_data(as_text=True)[:200]}")
    stats.seconds = time.perf_counter() - start
    stats.tracebacks = counter.count
    for name in ("adjudicator.api", app.logger.name, "werkzeug"):
        logging.getLogger(name).removeHandler(counter)
    logging.getLogger("adjudicator.api").propagate = True
    return stats


def main() -> None:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=50_000, help="how many requests (default 50,000)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--progress", type=int, default=5000, help="print a line every N requests (0: never)")
    args = parser.parse_args()
    stats = run(args.requests, args.seed, progress=args.progress)
    print(stats.report())
    for line in stats.server_errors[:10]:
        print("5xx:", line)
    sys.exit(1 if stats.server_errors or stats.tracebacks else 0)


if __name__ == "__main__":
    main()
