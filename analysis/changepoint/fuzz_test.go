package changepoint

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fuzzInput decodes a fuzz input: two bytes of options, a byte with the
// number of breaks, that many bytes of break positions, then the values,
// eight bytes each (any bits: NaN, ±Inf, huge, subnormal).
func fuzzInput(data []byte) (Series, Options) {
	o := DefaultOptions
	if len(data) >= 2 {
		o.MinSegment = 2 + int(data[0]%4)
		o.Window = 2*o.MinSegment + int(data[0]>>2)
		o.Permutations = 19 + 20*int(data[1]%8)
		o.Alpha = []float64{0.001, 0.01, 0.05, 0.2}[data[1]>>3%4]
		o.NoiseMultiple = float64(data[1]>>5%4) / 1.5
		o.MinChange = float64(data[1]>>7) * 0.01
		data = data[2:]
	}
	var s Series
	if len(data) > 0 {
		n := int(data[0] % 8)
		data = data[1:]
		for i := 0; i < n && i < len(data); i++ {
			s.Breaks = append(s.Breaks, int(data[i])-8)
		}
		data = data[min(n, len(data)):]
	}
	for len(data) >= 8 {
		s.Values = append(s.Values, math.Float64frombits(binary.LittleEndian.Uint64(data)))
		data = data[8:]
	}
	return s, o
}

func fuzzBytes(opts [2]byte, breaks []byte, values []float64) []byte {
	b := append([]byte{opts[0], opts[1], byte(len(breaks))}, breaks...)
	for _, v := range values {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// FuzzDetect: whatever the values and options, Detect does not panic, is
// deterministic, returns steps in order at positions with values, and
// gives the same result when resumed from the state of a prefix.
func FuzzDetect(f *testing.F) {
	tb := readSections(f, "tigerbeetle.txt")[""]
	f.Add(fuzzBytes([2]byte{4, 0}, nil, tb[:120]))
	f.Add(fuzzBytes([2]byte{1, 9}, []byte{20, 60}, gen{n: 80, sigma: 0.001, seed: 1, steps: map[int]float64{30: 0.05}}.values()))
	f.Add(fuzzBytes([2]byte{0, 0}, nil, []float64{1, 1, 1, math.NaN(), 2, 2, math.Inf(1), 2, 2, 0, 0, 0, -1, -1e308, 1e308, 5e-324}))
	f.Add(fuzzBytes([2]byte{7, 200}, []byte{3}, gen{n: 60, sigma: 0.01, seed: 2, bimodal: 0.05, spikes: map[int]float64{10: 1}}.values()))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, o := fuzzInput(data)
		if len(s.Values) > 400 {
			s.Values = s.Values[:400]
		}
		for _, m := range []Method{EDivisive, Potts} {
			o.Method = m
			steps, state := Detect(s, o, nil)
			again, _ := Detect(s, o, nil)
			if diff := cmp.Diff(steps, again, cmpopts.EquateNaNs()); diff != "" {
				t.Fatalf("%s: two runs differ:\n%s", m, diff)
			}
			checkSteps(t, s, steps)
			if m != EDivisive {
				continue
			}
			if state == nil || state.N != len(s.Values) || !state.wellFormed() {
				t.Fatalf("state %+v", state)
			}
			half := Series{Values: s.Values[:len(s.Values)/2], Breaks: s.Breaks, Seed: s.Seed}
			_, prev := Detect(half, o, nil)
			resumed, resumedState := Detect(s, o, prev)
			if diff := cmp.Diff(steps, resumed, cmpopts.EquateNaNs()); diff != "" {
				t.Fatalf("resumed from half the values (-cold +resumed):\n%s", diff)
			}
			if diff := cmp.Diff(state, resumedState); diff != "" {
				t.Fatalf("resumed state (-cold +resumed):\n%s", diff)
			}
		}
	})
}

// checkSteps checks what every result must satisfy.
func checkSteps(t *testing.T, s Series, steps []Step) {
	t.Helper()
	finite := func(i int) bool {
		return i >= 0 && i < len(s.Values) && !math.IsNaN(s.Values[i]) && !math.IsInf(s.Values[i], 0)
	}
	last := -1
	for _, st := range steps {
		if st.Index <= last || st.Prev >= st.Index || !finite(st.Index) || !finite(st.Prev) {
			t.Fatalf("step %+v out of order or at a position without a value (previous step at %d)", st, last)
		}
		for i := st.Prev + 1; i < st.Index; i++ {
			if finite(i) {
				t.Fatalf("step %+v: position %d between Prev and Index has a value", st, i)
			}
		}
		if got := relChange(st.Before, st.After); !cmp.Equal(got, st.Change, cmpopts.EquateNaNs()) {
			t.Fatalf("step %+v: Change is not (After − Before)/|Before|", st)
		}
		last = st.Index
	}
}
