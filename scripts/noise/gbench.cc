// Tiny Google Benchmark programs run over and over to collect run-to-run
// noise (scripts/noise/produce.sh). Nothing here is meant to change.
#include <benchmark/benchmark.h>
#include <algorithm>
#include <map>
#include <string>
#include <vector>

static void BM_StringConcat(benchmark::State& state) {
  for (auto _ : state) {
    std::string s;
    for (int i = 0; i < 200; i++) s += std::to_string(i);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_StringConcat);

static void BM_VectorSort(benchmark::State& state) {
  std::vector<unsigned> src(4000);
  unsigned x = 1;
  for (auto& v : src) { x = x * 1664525u + 1013904223u; v = x >> 8; }
  for (auto _ : state) {
    std::vector<unsigned> v = src;
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_VectorSort);

static void BM_MapInsert(benchmark::State& state) {
  for (auto _ : state) {
    std::map<int, int> m;
    for (int i = 0; i < 500; i++) m[i * 7 % 501] = i;
    benchmark::DoNotOptimize(m.size());
  }
}
BENCHMARK(BM_MapInsert);

BENCHMARK_MAIN();
