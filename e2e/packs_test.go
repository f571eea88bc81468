package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perfpages/perfpages/generator"
	"github.com/perfpages/perfpages/generator/route"
	"github.com/perfpages/perfpages/generator/shard"
)

// packBenches are the benchmarks of packSite: one series each, so each
// shares the data files of its pack; "stopped" has results up to
// packStop only.
var packBenches = []string{"alpha", "beta", "gamma", "delta", "epsilon", "stopped"}

const (
	packCommits = 40
	packStop    = 20
)

// packSite builds a site of benchmarks of one series each (as an asv or
// github-action-benchmark history has) and serves it.
func packSite(t *testing.T) (base string, shas []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: browser and whole-site tests run without -short")
	}
	dir := t.TempDir()
	results := filepath.Join(dir, "results")
	if err := os.MkdirAll(results, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range packCommits {
		sha := fmt.Sprintf("%040x", 0xabc000+i)
		shas = append(shas, sha)
		var rs []string
		for k, b := range packBenches {
			if b == "stopped" && i >= packStop {
				continue
			}
			rs = append(rs, fmt.Sprintf(`{"benchmark": %q, "metric": "wall-time", "unit": "ns", "samples": [%d]}`, b, 1000*(k+1)+i%3))
		}
		parents := ""
		if i > 0 {
			parents = fmt.Sprintf(`, "parents": [%q]`, shas[i-1])
		}
		doc := fmt.Sprintf(`{"schema": "perfpages.run.v1", "artifact": {"id": %q, "kind": "commit", "branch": "main", "date": "2026-03-%02dT%02d:00:00Z"%s},
 "machine": {"name": "ci"}, "results": [%s]}`, sha, 1+i/4, 1+i%4, parents, strings.Join(rs, ",\n"))
		if err := os.WriteFile(filepath.Join(results, fmt.Sprintf("%03d.json", i)), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(dir, "perfpages.toml")
	if err := os.WriteFile(cfg, []byte("[site]\ntitle = \"packs\"\n\n[[sources]]\ndir = \"results\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := generator.Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	if _, err := s.Build(ctx, generator.BuildOptions{Out: out}); err != nil {
		t.Fatal(err)
	}
	for _, b := range packBenches {
		if _, err := os.Stat(filepath.Join(out, route.PackData(shard.Pack(b), 0))); err != nil {
			t.Fatalf("%s's pack has no data file: %v", b, err)
		}
		if _, err := os.Stat(filepath.Join(out, route.SeriesData(b, 0))); err == nil {
			t.Errorf("%s, of one series, has a data file of its own", b)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	t.Cleanup(srv.Close)
	return srv.URL, shas
}

// TestPackedBenchmarks: the pages of benchmarks whose series are in their
// pack's data files read their own series from them, and only those: the
// history charts, the rows a commit page loads, the compare form.
func TestPackedBenchmarks(t *testing.T) {
	path := chromium(t)
	base, shas := packSite(t)
	browserCtx := startBrowser(t, path)

	t.Run("bench pages", func(t *testing.T) {
		for _, b := range []string{"alpha", "stopped"} {
			tb := openTab(t, browserCtx, base)
			tb.open(t, "/bench/"+b+"/")
			checkCharts(t, tb)
			// The history charts draw the benchmark's one series, read
			// from the pack's files, and no other benchmark's.
			got := eval[[][]any](t, tb, "reading the charts' series", `Array.from(document.querySelectorAll('[id^="c_"]')).flatMap(function (el) {
				return (echarts.getInstanceByDom(el).getOption().series || []).map(function (s) { return [s.name || "", s.type || "", (s.data || []).length]; });
			})`)
			t.Logf("%s: %v", b, got)
			want := packCommits
			if b == "stopped" {
				want = packStop
			}
			if len(got) == 0 || got[0][2] != float64(want) {
				t.Errorf("%s: the charts' series %v, want the first of %d points", b, got, want)
			}
			tb.check(t)
		}
	})

	t.Run("a commit page's other rows", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/commit/"+shas[10]+"/")
		benches := evalAsync[[]string](t, tb, "loading the other rows", `(function () {
			var d = document.querySelector("section.metric[data-metric='wall-time'] details.other-rows");
			if (!d) { return ["no details.other-rows"]; }
			d.open = true;
			return new Promise(function (resolve) {
				var done = function () {
					resolve(Array.from(d.querySelectorAll("tbody tr[data-bench]")).map(function (tr) { return tr.getAttribute("data-bench"); }));
				};
				if (d.hasAttribute("data-loaded")) { done(); } else { d.addEventListener("rowsloaded", done); }
			});
		})()`)
		slices.Sort(benches)
		want := slices.Sorted(slices.Values(packBenches))
		if !slices.Equal(benches, want) {
			t.Errorf("the other rows are of %q, want one row of each of %q", benches, want)
		}
	})

	t.Run("compare form", func(t *testing.T) {
		tb := openTab(t, browserCtx, base)
		defer tb.check(t)
		tb.open(t, "/compare/?base="+shas[5]+"&head="+shas[30])
		if !poll(t, tb, pollTimeout, `document.querySelector("form.compare-form").hasAttribute("data-loaded")`) {
			t.Fatalf("no result: %s", eval[string](t, tb, "reading the status", `document.querySelector(".compare-status").textContent + " " + (document.querySelector("form.compare-form").getAttribute("data-error") || "")`))
		}
		rows := eval[[]string](t, tb, "reading the result", `Array.from(document.querySelectorAll(".compare-result tbody tr")).map(function (tr) {
			return tr.cells[0].textContent + " " + tr.cells[3].textContent + " " + tr.cells[4].textContent;
		})`)
		slices.Sort(rows)
		// stopped has no value at the head: its row has the base alone.
		want := []string{"alpha 1.002 µs 1 µs", "beta 2.002 µs 2 µs", "delta 4.002 µs 4 µs", "epsilon 5.002 µs 5 µs", "gamma 3.002 µs 3 µs", "stopped 6.002 µs "}
		if !slices.Equal(rows, want) {
			t.Errorf("compare rows %q, want %q", rows, want)
		}
	})
}
