"""Tiny pytest-benchmark benchmarks run over and over to collect run-to-run
noise (scripts/noise/produce.sh). Nothing here is meant to change."""
import json


def _fib(n):
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def test_fib(benchmark):
    benchmark(_fib, 15)


def test_json_roundtrip(benchmark):
    doc = {"k%d" % i: [i, str(i), {"x": i}] for i in range(100)}
    benchmark(lambda: json.loads(json.dumps(doc)))


def test_sort(benchmark):
    data = [(i * 7919) % 10007 for i in range(5000)]
    benchmark(lambda: sorted(data))
