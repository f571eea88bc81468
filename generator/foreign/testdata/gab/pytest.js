window.BENCHMARK_DATA = {
  "lastUpdate": 1742962712444,
  "repoUrl": "https://github.com/example/pyproj",
  "entries": {
    "Python Benchmark with pytest-benchmark": [
      {
        "commit": {
          "author": {"name": "octo", "username": "octo"},
          "id": "aaaa000000000000000000000000000000000001",
          "message": "ci: add benchmarks",
          "timestamp": "2024-08-30T10:03:49-06:00",
          "url": "https://github.com/example/pyproj/commit/aaaa000000000000000000000000000000000001"
        },
        "date": 1725398755068,
        "tool": "pytest",
        "benches": [
          {
            "name": "tests/test_write.py::test_write[basic]",
            "value": 147.83268446516956,
            "unit": "iter/sec",
            "range": "stddev: 0.0020886163795779695",
            "extra": "mean: 6.764403985612581 msec\nrounds: 139"
          },
          {
            "name": "tests/test_write.py::test_write[disk]",
            "value": 98.26454549470019,
            "unit": "iter/sec",
            "range": "stddev: -0.5",
            "extra": "mean: 10.17661044444493 msec\nrounds: 63"
          },
          {
            "name": "tests/test_write.py::test_read[basic]",
            "value": 435.2041153743879,
            "unit": "iter/sec",
            "range": "stddev: 0.0011753717758067983",
            "extra": "mean: 2.2977723892609374 fortnights\nrounds: 447"
          }
        ]
      },
      {
        "commit": {
          "author": {"name": "octo", "username": "octo"},
          "id": "aaaa000000000000000000000000000000000002",
          "message": "docs: update installation instructions",
          "timestamp": "2024-09-03T15:27:24-06:00",
          "url": "https://github.com/example/pyproj/commit/aaaa000000000000000000000000000000000002"
        },
        "date": 1725399000000,
        "tool": "pytest",
        "benches": [
          {
            "name": "tests/test_write.py::test_write[basic]",
            "value": 2000,
            "unit": "iter/sec",
            "range": "stddev: 0.0001",
            "extra": "mean: 500 usec\nrounds: 10"
          }
        ]
      },
      {
        "commit": {
          "author": {"name": "octo", "username": "octo"},
          "id": "aaaa000000000000000000000000000000000002",
          "message": "docs: update installation instructions",
          "timestamp": "2024-09-03T15:27:24-06:00",
          "url": "https://github.com/example/pyproj/commit/aaaa000000000000000000000000000000000002"
        },
        "date": 1725399100000,
        "tool": "pytest",
        "benches": [
          {
            "name": "tests/test_write.py::test_write[basic]",
            "value": 1000,
            "unit": "iter/sec",
            "range": "stddev: 0.0002",
            "extra": "mean: 1 msec\nrounds: 30"
          }
        ]
      }
    ]
  }
}
