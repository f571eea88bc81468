window.BENCHMARK_DATA = {
  "lastUpdate": 1763743302011,
  "repoUrl": "https://github.com/example/kvstore",
  "entries": {
    "Go Benchmark": [
      {
        "commit": {
          "author": {
            "email": "ada@example.com",
            "name": "Ada Lovelace",
            "username": "ada"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "3e9b1f4c2a7d8e6f5b4c3a2918f7e6d5c4b3a291",
          "message": "Speed up memtable inserts (#41)\n\nAvoid one allocation per insert.",
          "timestamp": "2025-11-20T10:15:00+01:00",
          "tree_id": "5c1e0b7a9f3d2c4e6a8b0d1f3e5c7a9b2d4f6e80",
          "url": "https://github.com/example/kvstore/commit/3e9b1f4c2a7d8e6f5b4c3a2918f7e6d5c4b3a291"
        },
        "date": 1763630712345,
        "tool": "go",
        "benches": [
          {
            "name": "BenchmarkPut/size=64",
            "value": 812.4,
            "unit": "ns/op\t      96 B/op\t       2 allocs/op",
            "extra": "1478922 times\n4 procs"
          },
          {
            "name": "BenchmarkPut/size=64",
            "value": 820.1,
            "unit": "ns/op\t      96 B/op\t       2 allocs/op",
            "extra": "1463310 times\n4 procs"
          },
          {
            "name": "BenchmarkGet",
            "value": 41.7,
            "unit": "ns/op\t       0 B/op\t       0 allocs/op",
            "extra": "28734012 times\n4 procs"
          },
          {
            "name": "BenchmarkGet",
            "value": 42.3,
            "unit": "ns/op\t       0 B/op\t       0 allocs/op",
            "extra": "28101455 times\n4 procs"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "name": "GitHub",
            "username": "web-flow",
            "email": "noreply@github.com"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "9d2c7e1a4b6f8d0c3e5a7b9d1f2e4c6a8b0d2f47",
          "message": "Merge pull request #42 from ada/sstable-scan\n\nFaster sstable scans",
          "timestamp": "2025-11-21T16:40:12Z",
          "tree_id": "5c1e0b7a9f3d2c4e6a8b0d1f3e5c7a9b2d4f6e80",
          "url": "https://github.com/example/kvstore/commit/9d2c7e1a4b6f8d0c3e5a7b9d1f2e4c6a8b0d2f47"
        },
        "date": 1763743301907,
        "tool": "go",
        "benches": [
          {
            "name": "BenchmarkPut/size=64",
            "value": 655,
            "unit": "ns/op\t      48 B/op\t       1 allocs/op",
            "extra": "1830541 times\n4 procs"
          },
          {
            "name": "BenchmarkPut/size=64 - ns/op",
            "value": 655,
            "unit": "ns/op",
            "extra": "1830541 times\n4 procs"
          },
          {
            "name": "BenchmarkPut/size=64 - B/op",
            "value": 48,
            "unit": "B/op",
            "extra": "1830541 times\n4 procs"
          },
          {
            "name": "BenchmarkPut/size=64 - allocs/op",
            "value": 1,
            "unit": "allocs/op",
            "extra": "1830541 times\n4 procs"
          },
          {
            "name": "BenchmarkGet",
            "value": 40.9,
            "unit": "ns/op\t       0 B/op\t       0 allocs/op",
            "extra": "29310877 times\n4 procs"
          },
          {
            "name": "BenchmarkGet - ns/op",
            "value": 40.9,
            "unit": "ns/op",
            "extra": "29310877 times\n4 procs"
          },
          {
            "name": "BenchmarkGet - B/op",
            "value": 0,
            "unit": "B/op",
            "extra": "29310877 times\n4 procs"
          },
          {
            "name": "BenchmarkGet - allocs/op",
            "value": 0,
            "unit": "allocs/op",
            "extra": "29310877 times\n4 procs"
          },
          {
            "name": "BenchmarkScan",
            "value": 6497,
            "unit": "ns/op\t 157.61 MB/s",
            "extra": "184221 times\n4 procs"
          },
          {
            "name": "BenchmarkScan - ns/op",
            "value": 6497,
            "unit": "ns/op",
            "extra": "184221 times\n4 procs"
          },
          {
            "name": "BenchmarkScan - MB/s",
            "value": 157.61,
            "unit": "MB/s",
            "extra": "184221 times\n4 procs"
          }
        ]
      }
    ],
    "Server throughput": [
      {
        "commit": {
          "author": {
            "email": "ada@example.com",
            "name": "Ada Lovelace",
            "username": "ada"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "3e9b1f4c2a7d8e6f5b4c3a2918f7e6d5c4b3a291",
          "message": "Speed up memtable inserts (#41)\n\nAvoid one allocation per insert.",
          "timestamp": "2025-11-20T10:15:00+01:00",
          "tree_id": "5c1e0b7a9f3d2c4e6a8b0d1f3e5c7a9b2d4f6e80",
          "url": "https://github.com/example/kvstore/commit/3e9b1f4c2a7d8e6f5b4c3a2918f7e6d5c4b3a291"
        },
        "date": 1763630950112,
        "tool": "customBiggerIsBetter",
        "benches": [
          {
            "name": "GET requests",
            "value": 48210.5,
            "unit": "req/s",
            "range": "± 1.8%"
          },
          {
            "name": "PUT requests",
            "value": 20517,
            "unit": "req/s",
            "range": "± 2.4%"
          },
          {
            "name": "Cache hit ratio",
            "value": 93.1,
            "unit": "Percent",
            "extra": "warm cache\n10k keys"
          }
        ]
      }
    ]
  }
}