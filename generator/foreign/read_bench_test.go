package foreign

import (
	"fmt"
	"strings"
	"testing"
)

// benchInputs are files of the JSON formats shaped like what the tools
// write, each about a megabyte: what BenchmarkRead reads.
func benchInputs() map[string]Input {
	x := func(i int) float64 { return 1e3 * (1 + float64(i*7919%1000)/1e4) }
	var gb strings.Builder
	gb.WriteString(`{"context": {"date": "2026-11-21T14:30:13+00:00", "host_name": "vm", "num_cpus": 2, "mhz_per_cpu": 2445, "library_build_type": "release"}, "benchmarks": [`)
	for i := range 3000 {
		if i > 0 {
			gb.WriteString(",")
		}
		fmt.Fprintf(&gb, "\n"+`{"name": "BM_Sum/%d/1", "family_index": %d, "per_family_instance_index": 0, "run_name": "BM_Sum/%d/1", "run_type": "iteration", "repetitions": 3, "repetition_index": %d, "threads": 1, "iterations": 1000, "real_time": %v, "cpu_time": %v, "time_unit": "ns", "bytes_per_second": %v}`,
			i/3, i/3, i/3, i%3, x(i), x(i)*0.98, 8e9/x(i))
	}
	gb.WriteString("]}\n")

	var hf strings.Builder
	hf.WriteString(`{"results": [`)
	for i := range 200 {
		if i > 0 {
			hf.WriteString(",")
		}
		fmt.Fprintf(&hf, "\n"+`{"command": "sleep 0.%03d", "mean": 0.01, "stddev": 0.001, "median": 0.01, "user": 0.001, "system": 0.002, "min": 0.009, "max": 0.012, "times": [`, i)
		for j := range 200 {
			if j > 0 {
				hf.WriteString(", ")
			}
			fmt.Fprintf(&hf, "%v", x(i+j)/1e5)
		}
		hf.WriteString(`], "exit_codes": [`)
		for j := range 200 {
			if j > 0 {
				hf.WriteString(", ")
			}
			hf.WriteString("0")
		}
		hf.WriteString("]}")
	}
	hf.WriteString("]}\n")

	var pt strings.Builder
	pt.WriteString(`{"machine_info": {"node": "vm", "processor": "x86_64", "machine": "x86_64", "system": "Linux", "python_implementation": "CPython", "python_version": "3.12.1", "cpu": {"brand_raw": "Some CPU", "count": 8}}, "commit_info": {"id": "0123456789abcdef0123456789abcdef01234567", "time": "2026-11-21T14:30:13+00:00", "dirty": false, "branch": "main"}, "benchmarks": [`)
	for i := range 300 {
		if i > 0 {
			pt.WriteString(",")
		}
		fmt.Fprintf(&pt, "\n"+`{"group": null, "name": "test_fib[%d]", "fullname": "tests/test_fib.py::test_fib[%d]", "params": {"n": %d}, "param": "%d", "extra_info": {}, "options": {"disable_gc": false, "timer": "perf_counter", "min_rounds": 5}, "stats": {"min": 0.001, "max": 0.002, "mean": 0.0015, "rounds": 100, "iterations": 1, "data": [`, i, i, i, i)
		for j := range 100 {
			if j > 0 {
				pt.WriteString(", ")
			}
			fmt.Fprintf(&pt, "%v", x(i+j)/1e6)
		}
		pt.WriteString("]}}")
	}
	pt.WriteString("], \"datetime\": \"2026-11-21T14:30:13.000000+00:00\", \"version\": \"4.0.0\"}\n")

	var gab strings.Builder
	gab.WriteString("window.BENCHMARK_DATA = {\n  \"lastUpdate\": 1767225600000,\n  \"repoUrl\": \"https://github.com/o/r\",\n  \"entries\": {\n    \"Benchmark\": [")
	for e := range 100 {
		if e > 0 {
			gab.WriteString(",")
		}
		fmt.Fprintf(&gab, "\n      {\"commit\": {\"author\": {\"name\": \"A\", \"username\": \"a\"}, \"id\": \"%040x\", \"message\": \"change %d\", \"timestamp\": \"2026-01-01T00:00:00Z\", \"url\": \"https://github.com/o/r/commit/%040x\"}, \"date\": %d, \"tool\": \"go\", \"benches\": [", e+1, e, e+1, 1767225600000+e*3600000)
		for b := range 40 {
			if b > 0 {
				gab.WriteString(",")
			}
			fmt.Fprintf(&gab, "\n        {\"name\": \"BenchmarkX%d\", \"value\": %v, \"unit\": \"ns/op\", \"extra\": \"1000 times\\n2 procs\"}", b, x(e+b))
		}
		gab.WriteString("]}")
	}
	gab.WriteString("\n    ]\n  }\n}\n")

	var bmf strings.Builder
	bmf.WriteString("{")
	for i := range 5000 {
		if i > 0 {
			bmf.WriteString(",")
		}
		fmt.Fprintf(&bmf, "\n"+`"bench_%d": {"latency": {"value": %v, "lower_value": %v, "upper_value": %v}, "throughput": {"value": %v}}`, i, x(i), x(i)*0.9, x(i)*1.1, 1e9/x(i))
	}
	bmf.WriteString("\n}\n")

	return map[string]Input{
		"googlebench":      {Name: "gb.json", Data: []byte(gb.String())},
		"hyperfine":        {Name: "hf.json", Data: []byte(hf.String())},
		"pytest-benchmark": {Name: "pt.json", Data: []byte(pt.String())},
		"gab":              {Name: "data.js", Data: []byte(gab.String())},
		"bmf":              {Name: "bmf.json", Data: []byte(bmf.String())},
	}
}

// BenchmarkRead reads a file of each JSON format: MB/s of input, and MB
// per CPU-second, which does not depend on the machine's other load.
func BenchmarkRead(b *testing.B) {
	inputs := benchInputs()
	for _, name := range []string{"bmf", "gab", "googlebench", "hyperfine", "pytest-benchmark"} {
		in := inputs[name]
		b.Run(name, func(b *testing.B) {
			if _, runs, problems := Read(name, in, Defaults{}); len(runs) == 0 {
				b.Fatalf("no runs: %v", problems)
			}
			b.SetBytes(int64(len(in.Data)))
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				Read(name, in, Defaults{})
			}
			reportCPU(b, start, int64(len(in.Data)))
		})
	}
}
