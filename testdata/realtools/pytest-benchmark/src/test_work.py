"""pytest-benchmark benchmarks of perfpages' agreement suite (see
../../README.md). SIDE=base or SIDE=head picks the amount of work; each
test's name says how the head differs from the base."""
import os


def size(base, head):
    """Return base on the base side and head on the head side."""
    return head if os.environ.get("SIDE") == "head" else base


def work(n):
    """Run n steps of a 64-bit LCG."""
    x = 1
    for i in range(n):
        x = (x * 6364136223846793005 + i) & 0xFFFFFFFFFFFFFFFF
    return x


def test_same(benchmark):
    benchmark(work, size(20000, 20000))


def test_small(benchmark):
    benchmark(work, size(20000, 20400))


def test_small_faster(benchmark):
    benchmark(work, size(20000, 19600))


def test_large(benchmark):
    benchmark(work, size(20000, 26000))


def test_large_faster(benchmark):
    benchmark(work, size(20000, 15000))
