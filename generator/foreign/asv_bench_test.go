package foreign

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// reportCPU reports MB of input per CPU-second of the process (every
// goroutine's, the garbage collector's included) since start.
func reportCPU(b *testing.B, start time.Duration, bytes int64) {
	if cpu := cpuTime() - start; cpu > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/cpu.Seconds(), "MB/cpu-s")
	}
}

// asvBenchFolder is an asv results folder shaped like `perfpages demo
// -format asv`'s: files result files of n benchmarks each, a quarter of
// them time benchmarks with five samples and asv's statistics, the rest
// one value (memory, track), a few NaN (skipped) and null (failed).
func asvBenchFolder(files, n int) Input {
	in := Input{Name: "results", Files: map[string][]byte{}}
	var suite strings.Builder
	suite.WriteString("{\n")
	name := func(i int) (string, string) {
		switch i % 4 {
		case 0:
			return fmt.Sprintf("bench_%04d.Time.time_x", i), "time"
		case 1:
			return fmt.Sprintf("bench_%04d.Memory.peakmem_x", i), "peakmemory"
		}
		return fmt.Sprintf("bench_%04d.Track.track_x", i), "track"
	}
	for i := range n {
		b, typ := name(i)
		fmt.Fprintf(&suite, "%q: {\"name\": %q, \"param_names\": [], \"params\": [], \"type\": %q, \"unit\": \"seconds\", \"version\": \"%064x\"},\n", b, b, typ, i)
	}
	suite.WriteString("\"version\": 2}\n")
	in.Files["benchmarks.json"] = []byte(suite.String())
	in.Files["m/machine.json"] = []byte(`{"machine": "m", "os": "Linux", "arch": "x86_64", "num_cpu": "16", "ram": "65536000", "version": 1}`)
	for f := range files {
		var w strings.Builder
		sha := fmt.Sprintf("%08x%032x", f+1, f)
		fmt.Fprintf(&w, `{"commit_hash": %q, "env_name": "virtualenv-py3.12", "date": %d, "params": {"machine": "m", "python": "3.12"}, "python": "3.12", "requirements": {}, "env_vars": {}, "result_columns": ["result", "params", "version", "started_at", "duration", "stats_ci_99_a", "stats_ci_99_b", "stats_q_25", "stats_q_75", "stats_number", "stats_repeat", "samples", "profile"], "results": {`,
			sha, 1767225600000+int64(f)*3600000)
		for i := range n {
			b, _ := name(i)
			if i > 0 {
				w.WriteString(", ")
			}
			x := 1e-3 * (1 + float64((i*7919+f*104729)%1000)/1e4)
			switch {
			case i%97 == 5:
				fmt.Fprintf(&w, `%q: [null, [], "%064x", 1767225600000, 0.5]`, b, i)
			case i%89 == 3:
				fmt.Fprintf(&w, `%q: [[NaN], [], "%064x", 1767225600000, 0.5]`, b, i)
			case i%4 == 0:
				fmt.Fprintf(&w, `%q: [[%v], [], "%064x", 1767225600000, 0.31247, [%v], [%v], [%v], [%v], [1], [5], [[%v, %v, %v, %v, %v]]]`,
					b, x, i, x*0.98, x*1.03, x*0.99, x*1.01, x, x*1.01, x*0.98, x*1.03, x*0.99)
			default:
				fmt.Fprintf(&w, `%q: [[%v], [], "%064x", 1767225600000, 0.25]`, b, x*1e9, i)
			}
		}
		w.WriteString(`}, "durations": {}, "version": 2}`)
		in.Files[fmt.Sprintf("m/%s-virtualenv-py3.12.json", sha[:8])] = []byte(w.String())
	}
	return in
}

// BenchmarkReadASV reads asv results at the speed of reading: MB/s of
// result files (and MB per CPU-second, which does not depend on the
// machine's other load), a whole folder on every core and one file on one
// (the folder opened once).
func BenchmarkReadASV(b *testing.B) {
	in := asvBenchFolder(32, 2000)
	size := 0
	for _, d := range in.Files {
		size += len(d)
	}
	b.Run("folder", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if _, runs, _ := Read("asv", in, Defaults{}); len(runs) != 32 {
				b.Fatalf("%d runs", len(runs))
			}
		}
		reportCPU(b, start, int64(size))
	})
	b.Run("file", func(b *testing.B) {
		rel := "m/00000001-virtualenv-py3.12.json"
		f, problems := OpenASV(in.Name, map[string][]byte{"benchmarks.json": in.Files["benchmarks.json"], "m/machine.json": in.Files["m/machine.json"]}, []string{rel}, 0, Defaults{})
		if len(problems) > 0 {
			b.Fatal(problems)
		}
		b.SetBytes(int64(len(in.Files[rel])))
		b.ReportAllocs()
		start := cpuTime()
		for b.Loop() {
			if runs, problems := f.ReadFile(rel, in.Files[rel]); len(runs) != 1 {
				b.Fatalf("%d runs: %v", len(runs), problems)
			}
		}
		reportCPU(b, start, int64(len(in.Files[rel])))
	})
}
