// Google Benchmark benchmarks of perfpages' agreement suite (see
// ../../README.md). SIDE=base or SIDE=head picks the amount of work; each
// benchmark's name says how the head differs from the base.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>

// size returns base on the base side and head on the head side.
static int64_t size(int64_t base, int64_t head) {
  const char* side = std::getenv("SIDE");
  return side != nullptr && std::strcmp(side, "head") == 0 ? head : base;
}

// work runs n steps of a 64-bit LCG, which no compiler folds away.
static uint64_t work(int64_t n) {
  uint64_t x = 1;
  for (int64_t i = 0; i < n; i++) x = x * 6364136223846793005ULL + uint64_t(i);
  return x;
}

static void run(benchmark::State& state, int64_t n) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(work(n));
  }
}

static void BM_Same(benchmark::State& s) { run(s, size(2000, 2000)); }
static void BM_Small(benchmark::State& s) { run(s, size(2000, 2040)); }
static void BM_SmallFaster(benchmark::State& s) { run(s, size(2000, 1960)); }
static void BM_Large(benchmark::State& s) { run(s, size(2000, 2600)); }
static void BM_LargeFaster(benchmark::State& s) { run(s, size(2000, 1500)); }
BENCHMARK(BM_Same);
BENCHMARK(BM_Small);
BENCHMARK(BM_SmallFaster);
BENCHMARK(BM_Large);
BENCHMARK(BM_LargeFaster);
BENCHMARK_MAIN();
