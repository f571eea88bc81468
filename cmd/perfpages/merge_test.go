package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestShardFlags: -shard takes i/n with 1 ≤ i ≤ n, and merge wants the
// shards' folders; both fail before anything is built.
func TestShardFlags(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"shard past n", []string{"build", "-shard", "4/3"}, "want i/n with 1 ≤ i ≤ n"},
		{"shard 0", []string{"build", "-shard", "0/3"}, "want i/n with 1 ≤ i ≤ n"},
		{"shard not a fraction", []string{"build", "-shard", "2"}, "want i/n with 1 ≤ i ≤ n"},
		{"merge without shards", []string{"merge", "-out", "site"}, "give the output folder of every shard"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			_, stderr, err := runCLI(t, dir, tc.args...)
			if err == nil || !strings.Contains(stderr, tc.want) {
				t.Errorf("%v: %v, stderr %q; want %q", tc.args, err, stderr, tc.want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) > 0 {
				t.Errorf("%v wrote %s", tc.args, entries[0].Name())
			}
		})
	}
}

// TestShardedDemoCLI: the demo built as two shards and merged from the
// command line says what it did.
func TestShardedDemoCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: builds the demo site three times")
	}
	dir := t.TempDir()
	for _, i := range []string{"1", "2"} {
		stdout, stderr, err := runCLI(t, dir, "build", "-shard", i+"/2", "-out", "shard-"+i)
		if err != nil {
			t.Fatalf("shard %s: %v\n%s", i, err, stderr)
		}
		if !strings.HasPrefix(stdout, "built shard "+i+"/2: ") {
			t.Errorf("shard %s: stdout %q", i, stdout)
		}
	}
	stdout, stderr, err := runCLI(t, dir, "merge", "-out", "public", "shard-1", "shard-2")
	if err != nil {
		t.Fatalf("merge: %v\n%s", err, stderr)
	}
	if !strings.HasPrefix(stdout, "merged 2 shards: ") || !strings.Contains(stdout, "into public") {
		t.Errorf("merge: stdout %q", stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "index.html")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "public", "perfpages-partial.gob.gz")); err == nil {
		t.Error("the site holds a partial site model")
	}
}
