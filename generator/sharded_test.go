package generator

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/perfpages/perfpages/generator/shard"
)

// shardedBuild builds site s as n shards into dir/shard-<i> and merges
// them into dir/site; it returns the merged site's files.
func shardedBuild(t *testing.T, s func() *Site, dir string, n int) map[string]fileInfo {
	t.Helper()
	var shards []string
	for i := 1; i <= n; i++ {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d", i))
		if rep, err := s().Build(context.Background(), BuildOptions{Out: out, Shard: shard.Spec{I: i, N: n}}); err != nil {
			t.Fatalf("shard %d/%d: %v (warnings %v)", i, n, err, rep.Warnings)
		}
		shards = append(shards, out)
	}
	out := filepath.Join(dir, "site")
	if rep, err := s().Merge(context.Background(), MergeOptions{Out: out, Shards: shards}); err != nil {
		t.Fatalf("merge: %v (warnings %v)", err, rep.Warnings)
	}
	return readTree(t, out)
}

// sameSite reports every file of got that is missing from want, differs,
// or is only in got.
func sameSite(t *testing.T, what string, got, want map[string]fileInfo) {
	t.Helper()
	var diff []string
	for p, w := range want {
		g, ok := got[p]
		switch {
		case !ok:
			diff = append(diff, p+": missing")
		case !bytes.Equal(g.data, w.data):
			diff = append(diff, p+": differs")
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			diff = append(diff, p+": only in the sharded site")
		}
	}
	slices.Sort(diff)
	if len(diff) > 0 {
		t.Errorf("%s: %d of %d files not as one build's:\n%v", what, len(diff), len(want), diff[:min(len(diff), 30)])
	}
}

func TestShardedDemo(t *testing.T) {
	demo := func() *Site {
		s, err := Demo()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	dir := t.TempDir()
	one := filepath.Join(dir, "one")
	if rep, err := demo().Build(context.Background(), BuildOptions{Out: one}); err != nil {
		t.Fatalf("build: %v (%v)", err, rep.Warnings)
	}
	want := readTree(t, one)
	for _, n := range []int{1, 3} {
		got := shardedBuild(t, demo, filepath.Join(dir, fmt.Sprint(n)), n)
		sameSite(t, fmt.Sprintf("%d shards", n), got, want)
		t.Logf("%d shards: %d files, one build %d", n, len(got), len(want))
	}
}
