#include <benchmark/benchmark.h>
#include <numeric>
#include <string>
#include <vector>

// Sums every step-th of n ints: two positional args, items and bytes processed.
static void BM_Sum(benchmark::State& state) {
  const int n = state.range(0), step = state.range(1);
  std::vector<int> v(n, 1);
  for (auto _ : state) {
    int s = 0;
    for (int i = 0; i < n; i += step) s += v[i];
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations() * (n / step));
  state.SetBytesProcessed(state.iterations() * (n / step) * sizeof(int));
}
BENCHMARK(BM_Sum)->Args({8, 1})->Args({64, 2});

// Named args and two custom counters.
static void BM_Concat(benchmark::State& state) {
  std::string a(state.range(0), 'a');
  for (auto _ : state) {
    std::string s;
    for (int i = 0; i < state.range(1); i++) s += a;
    benchmark::DoNotOptimize(s);
  }
  state.counters["appends"] = static_cast<double>(state.range(1));
  state.counters["rate"] = benchmark::Counter(static_cast<double>(state.range(1)), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Concat)->ArgNames({"len", "count"})->Args({8, 4});

// Threads, real time and microseconds.
static void BM_Threaded(benchmark::State& state) {
  for (auto _ : state) {
    std::vector<int> v(256);
    std::iota(v.begin(), v.end(), state.thread_index());
    benchmark::DoNotOptimize(v.data());
  }
}
BENCHMARK(BM_Threaded)->Threads(2)->UseRealTime()->Unit(benchmark::kMicrosecond);

// Always fails.
static void BM_Fails(benchmark::State& state) {
  state.SkipWithError("resource not available");
  for (auto _ : state) {
  }
}
BENCHMARK(BM_Fails);

BENCHMARK_MAIN();
