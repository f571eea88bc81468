package par

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	var seen [1000]atomic.Int32
	if err := Each(context.Background(), len(seen), func(i int) error {
		seen[i].Add(1)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for i := range seen {
		if n := seen[i].Load(); n != 1 {
			t.Fatalf("f(%d) ran %d times", i, n)
		}
	}
	if err := Each(context.Background(), 0, func(int) error { t.Fatal("f ran for n = 0"); return nil }); err != nil {
		t.Fatal(err)
	}

	stop := errors.New("stop")
	var ran atomic.Int32
	if err := Each(context.Background(), 1000, func(i int) error {
		ran.Add(1)
		if i == 3 {
			return stop
		}
		return nil
	}); !errors.Is(err, stop) {
		t.Fatalf("error %v, want %v", err, stop)
	}
	if n := ran.Load(); n == 1000 {
		t.Error("Each went on after an error")
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Each(ctx, 10, func(int) error { return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}
