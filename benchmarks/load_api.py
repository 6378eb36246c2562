"""Load test of the HTTP API on loopback: requests per second and p50/p99 latency of full phases.

Two payloads: a standard Spring 1901 movement phase (all 22 units ordered) and an Arctic Fall 2010 phase
(all 15 units, the example order sheet). By default it starts `adjudicator serve` on a free loopback port,
sends a bounded number of requests from a few client threads, and stops the server.

    python benchmarks/load_api.py --requests 2000 --concurrency 4 --workers 2
    python benchmarks/load_api.py --url http://127.0.0.1:8000      # an already running server (loopback only)
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import requests

ROOT = Path(__file__).resolve().parent.parent
STANDARD_ORDERS = {
    "Austria": ["A vie - gal", "A bud - ser", "F tri - alb"],
    "England": ["F lon - nth", "F edi - nrg", "A lvp - yor"],
    "France": ["A par - bur", "A mar - spa", "F bre - mid"],
    "Germany": ["A mun - ruh", "A ber - kie", "F kie - den"],
    "Italy": ["A ven - tyr", "A rom - ven", "F nap - ion"],
    "Russia": ["A war - gal", "A mos - ukr", "F sev - bla", "F stp/sc - bot"],
    "Turkey": ["F ank - bla", "A con - bul", "A smy - con"],
}


def _loopback_only(url: str) -> None:
    host = urlparse(url).hostname or ""
    if host == "localhost":
        return
    try:
        if ipaddress.ip_address(host).is_loopback:
            return
    except ValueError:
        pass
    sys.exit(f"refusing {url}: this load test only targets loopback addresses")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start_server(workers: int) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "adjudicator", "serve", "--port", str(port), "--workers",
                             str(workers)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if requests.get(base + "/healthz", timeout=1).ok:
                return proc, base
        except requests.ConnectionError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("the server did not start")


def _payloads(base: str) -> dict[str, dict]:
    standard = requests.get(base + "/v1/variants/standard/start", timeout=10).json()
    arctic = requests.get(base + "/v1/variants/arctic/start", timeout=10).json()
    sheet = (ROOT / "examples" / "arctic-fall-2010-orders.txt").read_text()
    return {
        "standard Spring 1901 movement": {"state": standard, "orders": STANDARD_ORDERS},
        "arctic Fall 2010 movement": {"state": arctic, "orders": sheet},
    }


def run(base: str, body: dict, total: int, concurrency: int, max_seconds: float) -> dict:
    """Send `total` POST /v1/adjudicate requests from `concurrency` threads; latency figures in ms."""
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    counter = iter(range(total))
    stop_at = time.monotonic() + max_seconds

    def worker() -> None:
        session = requests.Session()
        while time.monotonic() < stop_at:
            with lock:
                if next(counter, None) is None:
                    return
            t0 = time.perf_counter()
            r = session.post(base + "/v1/adjudicate", json=body, timeout=30)
            dt = (time.perf_counter() - t0) * 1000
            with lock:
                latencies.append(dt)
                failures[0] += r.status_code != 200

    threads = [threading.Thread(target=worker) for _ in range(concurrency)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {
        "requests": len(latencies), "failures": failures[0], "seconds": round(elapsed, 2),
        "rps": round(len(latencies) / elapsed, 1),
        "p50_ms": round(statistics.median(latencies), 2),
        "p99_ms": round(latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))], 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", help="a running server (loopback only); default: start one")
    ap.add_argument("--requests", type=int, default=1000, help="requests per payload (bounded)")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--workers", type=int, default=2, help="gunicorn workers when starting a server")
    ap.add_argument("--max-seconds", type=float, default=120, help="stop each run after this long")
    args = ap.parse_args()
    proc = None
    if args.url:
        _loopback_only(args.url)
        base = args.url.rstrip("/")
    else:
        proc, base = _start_server(args.workers)
    try:
        for name, body in _payloads(base).items():
            requests.post(base + "/v1/adjudicate", json=body, timeout=30).raise_for_status()  # warm up
            figures = run(base, body, args.requests, args.concurrency, args.max_seconds)
            print(f"{name}: {figures['rps']} requests/s, p50 {figures['p50_ms']} ms, p99 {figures['p99_ms']} ms "
                  f"({figures['requests']} requests, {figures['failures']} failed, concurrency {args.concurrency}, "
                  f"{args.workers} workers)")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(timeout=10)


if __name__ == "__main__":
    main()
