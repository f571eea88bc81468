package archive

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/perfpages/perfpages/analysis/model"
)

// bigRun is a realistic large run: n results over a few benchmarks, each
// with parameters, ten samples and iteration counts. The RNG is seeded, so
// every call returns the same run.
func bigRun(n int) model.Run {
	rng := rand.New(rand.NewPCG(1, 2))
	run := model.Run{
		Artifact: model.Artifact{ID: "3f2a9c0d5e6b7a8c9d0e1f2a3b4c5d6e7f8a9b0c", Kind: model.KindCommit,
			Date: time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC), Parents: []string{"9e1c7d2a4b6c8e0f1a3b5c7d9e1f3a5b7c9d1e3f"},
			Branch: "main", PR: 1234, Title: "Speed up the parser (#1234)", Author: "Ada"},
		Machine: model.Machine{Name: "linux-x64-1", OS: "linux", Arch: "amd64", Cores: 16},
		Context: model.NewParams(map[string]string{"toolchain": "go1.26"}),
	}
	metrics := []string{"wall-time", "instructions:u", "max-rss", "cycles:u", "task-clock"}
	for i := range n {
		samples := make([]float64, 10)
		iters := make([]float64, 10)
		for j := range samples {
			samples[j] = 1000 + rng.Float64()*100
			iters[j] = float64(j + 1)
		}
		run.Results = append(run.Results, model.Result{
			Case: model.TestCase{
				Benchmark: fmt.Sprintf("bench-%03d", i/50),
				Params: model.NewParams(map[string]string{
					"profile":  []string{"debug", "opt", "check"}[i%3],
					"scenario": fmt.Sprintf("incr-%d", i/len(metrics)%10),
				}),
				Category: model.Primary,
			},
			Metric:  metrics[i%len(metrics)],
			Unit:    "ns",
			Samples: samples,
			Iters:   iters,
		})
	}
	return run
}

func benchmarkDecode(b *testing.B, format string) {
	run := bigRun(5000)
	var buf bytes.Buffer
	if err := Encode(&buf, run, format, false); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	name := "big." + format
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		got, problems := Decode(name, data, Options{})
		if len(problems) > 0 || len(got.Results) != len(run.Results) {
			b.Fatalf("decoded %d results, problems %v", len(got.Results), problems)
		}
	}
}

func BenchmarkDecodeJSON(b *testing.B) { benchmarkDecode(b, "json") }
func BenchmarkDecodeYAML(b *testing.B) { benchmarkDecode(b, "yaml") }
func BenchmarkDecodeTOML(b *testing.B) { benchmarkDecode(b, "toml") }

func BenchmarkEncodeJSON(b *testing.B) {
	run := bigRun(5000)
	for b.Loop() {
		if err := Encode(&bytes.Buffer{}, run, "json", false); err != nil {
			b.Fatal(err)
		}
	}
}
