window.BENCHMARK_DATA = {
  "version": 2,
  "lastUpdate": 1787311775060,
  "repoUrl": "https://github.com/gofiber/fiber",
  "runs": [
    {
      "id": "f49e7d89be1dba20282ce229a4e671c4931634b1",
      "timestamp": "2026-05-28T16:06:48+02:00",
      "url": "https://github.com/gofiber/fiber/commit/f49e7d89be1dba20282ce229a4e671c4931634b1",
      "message": "Merge pull request #4366 from gofiber/copilot/fix-app-init-mutex-deadlock"
    },
    {
      "id": "9a480eff31a5300b4df6d892ec41baba1d32bbc8",
      "timestamp": "2026-05-29T08:40:21+02:00",
      "url": "https://github.com/gofiber/fiber/commit/9a480eff31a5300b4df6d892ec41baba1d32bbc8",
      "message": "Merge pull request #4369 from gofiber/copilot/fix-global-client-maxconns"
    },
    {
      "id": "f0752cedbebf50080e3c45c15665dff02895d1b4",
      "timestamp": "2026-05-29T10:52:01+02:00",
      "url": "https://github.com/gofiber/fiber/commit/f0752cedbebf50080e3c45c15665dff02895d1b4",
      "message": "feat: enhance cleanup-release-draft workflow with manual trigger and improved draft handling"
    },
    {
      "id": "ee59a3b4245615221eebb1264ec62448279a1ce6",
      "timestamp": "2026-05-29T15:41:48+02:00",
      "url": "https://github.com/gofiber/fiber/commit/ee59a3b4245615221eebb1264ec62448279a1ce6",
      "message": "Merge pull request #4375 from gofiber/copilot/narrow-client-hook-lock-scope"
    },
    {
      "id": "d016abb300794a0f1631a13a9b846238734164af",
      "timestamp": "2026-05-29T15:48:52+02:00",
      "url": "https://github.com/gofiber/fiber/commit/d016abb300794a0f1631a13a9b846238734164af",
      "message": "Merge pull request #4374 from gofiber/copilot/fix-dangling-pooled-buffer"
    },
    {
      "id": "0534345179a72a7986d1c3f97c1a3972abf1fc67",
      "timestamp": "2026-05-29T15:51:23+02:00",
      "url": "https://github.com/gofiber/fiber/commit/0534345179a72a7986d1c3f97c1a3972abf1fc67",
      "message": "Merge pull request #4383 from alexandear-org/test/rename-path-benchmark"
    }
  ],
  "names": [
    "Benchmark_NewError (github.com/gofiber/fiber/v3) - ns/op",
    "Benchmark_NewError (github.com/gofiber/fiber/v3) - B/op",
    "Benchmark_NewError (github.com/gofiber/fiber/v3) - allocs/op",
    "BenchmarkAppendMsgredirectionMsg (github.com/gofiber/fiber/v3) - MB/s",
    "Benchmark_Path_matchParams//api/v1/const_|_match_|_/api/v1/const (github.com/gofiber/fiber/v3) - ns/op"
  ],
  "units": [
    "ns/op",
    "B/op",
    "allocs/op",
    "MB/s",
    "ns/op"
  ],
  "values": [
    [
      63.42,
      63.8,
      55.02,
      57.13,
      71.95,
      38.97
    ],
    [
      24,
      24,
      24,
      24,
      24,
      24
    ],
    [
      1,
      1,
      1,
      1,
      1,
      1
    ],
    [
      1905.53,
      1937.15,
      1933.36,
      1921.66,
      2070.52,
      1999.02
    ],
    [
      9.97,
      9.973,
      9.993,
      10.01,
      9.351,
      null
    ]
  ]
};
