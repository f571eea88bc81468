package par

import (
	"context"
	"errors"
	"strings"
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

// A panic in f is an error that carries it, not a crash of the process.
func TestEachPanic(t *testing.T) {
	err := Each(context.Background(), 8, func(i int) error {
		if i == 5 {
			var s []int
			_ = s[i]
		}
		return nil
	})
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("err = %v, want a *PanicError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "index out of range [5]") || !strings.Contains(msg, "please report it") || !strings.Contains(msg, "par_test.go") {
		t.Errorf("error does not name the panic, ask for a report and show where:\n%s", msg)
	}
}
