window.BENCHMARK_DATA = {
  "lastUpdate": 1764781200000,
  "repoUrl": "https://github.com/example/tinydb",
  "entries": {
    "Rust Benchmark": [
      {
        "commit": {
          "author": {
            "email": "grace@example.com",
            "name": "Grace Hopper",
            "username": "grace"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",
          "message": "Add a B-tree index (#48)\n\nPages of 4 KiB.",
          "timestamp": "2025-12-01T10:00:00+01:00",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
        },
        "date": 1764580800000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 5120,
            "unit": "ns/iter",
            "range": "± 102"
          },
          {
            "name": "lookup",
            "value": 830,
            "unit": "ns/iter",
            "range": "± 16"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "name": "octo",
            "username": "octo"
          },
          "committer": {
            "name": "octo",
            "username": "octo"
          },
          "id": "5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081",
          "message": "Cache decoded pages",
          "timestamp": "2025-06-30T12:00:00Z",
          "url": "https://github.com/example/tinydb/pull/51/commits/5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081"
        },
        "date": 1764601200000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 5090,
            "unit": "ns/iter",
            "range": "± 101"
          },
          {
            "name": "lookup",
            "value": 610,
            "unit": "ns/iter",
            "range": "± 12"
          }
        ]
      },
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
          "id": "2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e",
          "message": "Merge pull request #50 from ada/wal\n\nWrite-ahead log",
          "timestamp": "2025-11-28T09:00:00Z",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e"
        },
        "date": 1764663000000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 6400,
            "unit": "ns/iter",
            "range": "± 128"
          },
          {
            "name": "lookup",
            "value": 835,
            "unit": "ns/iter",
            "range": "± 16"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "email": "grace@example.com",
            "name": "Grace Hopper",
            "username": "grace"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f",
          "message": "Cache decoded pages (#51)",
          "timestamp": "2025-12-02T11:30:00Z",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
        },
        "date": 1764675900000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 6380,
            "unit": "ns/iter",
            "range": "± 127"
          },
          {
            "name": "lookup",
            "value": 600,
            "unit": "ns/iter",
            "range": "± 12"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "name": "octo",
            "username": "octo"
          },
          "committer": {
            "name": "octo",
            "username": "octo"
          },
          "id": "6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192",
          "message": "Batch fsync calls",
          "timestamp": "2025-07-01T00:00:00Z",
          "url": "https://github.com/example/tinydb/pull/53/commits/6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192"
        },
        "date": 1764752400000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 4100,
            "unit": "ns/iter",
            "range": "± 82"
          },
          {
            "name": "lookup",
            "value": 605,
            "unit": "ns/iter",
            "range": "± 12"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "name": "octo",
            "username": "octo"
          },
          "committer": {
            "name": "octo",
            "username": "octo"
          },
          "id": "6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192",
          "message": "[1.x] Batch fsync calls",
          "timestamp": "2025-07-01T00:00:00Z",
          "url": "https://github.com/example/tinydb/pull/54/commits/6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192"
        },
        "date": 1764752700000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 4150,
            "unit": "ns/iter",
            "range": "± 83"
          },
          {
            "name": "lookup",
            "value": 602,
            "unit": "ns/iter",
            "range": "± 12"
          }
        ]
      },
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
          "id": "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70",
          "message": "Batch fsync calls (#53)",
          "timestamp": "2025-12-02T10:00:00Z",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"
        },
        "date": 1764777600000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 4120,
            "unit": "ns/iter",
            "range": "± 82"
          },
          {
            "name": "lookup",
            "value": 598,
            "unit": "ns/iter",
            "range": "± 11"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "email": "grace@example.com",
            "name": "Grace Hopper",
            "username": "grace"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f",
          "message": "Cache decoded pages (#51)",
          "timestamp": "2025-12-02T11:30:00Z",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
        },
        "date": 1764781200000,
        "tool": "cargo",
        "benches": [
          {
            "name": "insert",
            "value": 6350,
            "unit": "ns/iter",
            "range": "± 127"
          },
          {
            "name": "lookup",
            "value": 601,
            "unit": "ns/iter",
            "range": "± 12"
          }
        ]
      }
    ],
    "Memory": [
      {
        "commit": {
          "author": {
            "email": "grace@example.com",
            "name": "Grace Hopper",
            "username": "grace"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",
          "message": "Add a B-tree index (#48)\n\nPages of 4 KiB.",
          "timestamp": "2025-12-01T10:00:00+01:00",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
        },
        "date": 1764581100000,
        "tool": "customSmallerIsBetter",
        "benches": [
          {
            "name": "peak RSS",
            "value": 182.5,
            "unit": "MB"
          },
          {
            "name": "page cache misses",
            "value": 12.5,
            "unit": "%"
          }
        ]
      },
      {
        "commit": {
          "author": {
            "email": "grace@example.com",
            "name": "Grace Hopper",
            "username": "grace"
          },
          "committer": {
            "email": "noreply@github.com",
            "name": "GitHub",
            "username": "web-flow"
          },
          "distinct": true,
          "id": "3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f",
          "message": "Cache decoded pages (#51)",
          "timestamp": "2025-12-02T11:30:00Z",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f"
        },
        "date": 1764676200000,
        "tool": "customSmallerIsBetter",
        "benches": [
          {
            "name": "peak RSS",
            "value": 240.0,
            "unit": "MB"
          },
          {
            "name": "page cache misses",
            "value": 3.25,
            "unit": "%"
          }
        ]
      },
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
          "id": "4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70",
          "message": "Batch fsync calls (#53)",
          "timestamp": "2025-12-02T10:00:00Z",
          "tree_id": "0000000000000000000000000000000000000000",
          "url": "https://github.com/example/tinydb/commit/4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f70"
        },
        "date": 1764777900000,
        "tool": "customSmallerIsBetter",
        "benches": [
          {
            "name": "peak RSS",
            "value": 238.0,
            "unit": "MB"
          },
          {
            "name": "page cache misses",
            "value": 3.5,
            "unit": "%"
          }
        ]
      }
    ]
  }
}
