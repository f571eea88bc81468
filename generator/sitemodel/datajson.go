package sitemodel

import (
	"encoding/json"
	"strconv"
)

// MarshalJSON writes a data file by hand: data files are most of a site's
// bytes and of its build's work, and the reflection of encoding/json with a
// marshaler per number was a large part of a cold build (BenchmarkBuild in
// package generator measures it). The fields and their
// forms are those of the struct tags (a test checks both agree).
func (d SeriesData) MarshalJSON() ([]byte, error) {
	return d.AppendJSON(make([]byte, 0, 64+len(d.Pos)*48)), nil
}

// AppendJSON appends the JSON MarshalJSON returns to b: the renderer
// encodes data files into buffers it reuses.
func (d SeriesData) AppendJSON(b []byte) []byte {
	b = append(b, `{"from":`...)
	b = strconv.AppendInt(b, int64(d.From), 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendInt(b, int64(d.N), 10)
	b = appendStrings(b, "ids", d.IDs, false)
	b = appendInts(b, "len", d.Len, false)
	b = appendStrings(b, "benches", d.Benches, true)
	b = appendInts(b, "bench", d.Bench, true)
	b = appendExacts(b, "prev", d.Prev)
	c := &d.Columns
	b = appendInts(b, "pos", c.Pos, false)
	b = appendArray(b, "v", c.V, false, appendExact)
	b = appendExacts(b, "b", c.B)
	b = appendFixed(b, "t", c.T)
	b = appendFixed(b, "f", c.F)
	// Mean and Std are nil or as long as the rows (see Columns.trim).
	b = appendArray(b, "mean", c.Mean, true, appendRounded)
	b = appendArray(b, "std", c.Std, true, appendRounded)
	b = appendInts(b, "s", c.Samples, false)
	b = appendFixed(b, "z", c.Z)
	b = appendFixed(b, "p", c.P)
	b = appendInts(b, "k", c.K, false)
	for _, col := range []struct {
		name string
		xs   []int
	}{{"note", c.Note}, {"zr", c.ZR}, {"pt", c.PT}, {"bt", c.BT}, {"ack", c.Ack}, {"ann", c.Ann}, {"err", c.Err}, {"rng", c.Rng}, {"co", c.CO}, {"ev", c.EV}} {
		b = appendInts(b, col.name, col.xs, true)
	}
	b = appendExacts(b, "cv", c.CV)
	b = appendStrings(b, "str", d.Strings, false)
	return append(b, '}')
}

// appendArray appends the column `,"name":[x,…]`, each x written by one;
// a nil column is `,"name":null`, and with omitEmpty an empty or nil one
// is left out.
func appendArray[T any](b []byte, name string, xs []T, omitEmpty bool, one func([]byte, T) []byte) []byte {
	if omitEmpty && len(xs) == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	if xs == nil {
		return append(b, `":null`...)
	}
	b = append(b, `":[`...)
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, x)
	}
	return append(b, ']')
}

func appendInts(b []byte, name string, xs []int, omitEmpty bool) []byte {
	return appendArray(b, name, xs, omitEmpty, func(b []byte, x int) []byte { return strconv.AppendInt(b, int64(x), 10) })
}

func appendExact(b []byte, x Exact) []byte     { return appendNumber(b, float64(x), -1) }
func appendRounded(b []byte, x Rounded) []byte { return appendNumber(b, float64(x), -1) }

// appendExacts and appendFixed leave an empty column out.
func appendExacts(b []byte, name string, xs []Exact) []byte {
	return appendArray(b, name, xs, true, appendExact)
}

func appendFixed(b []byte, name string, xs []Fixed) []byte {
	return appendArray(b, name, xs, true, appendFixedValue)
}

func appendStrings(b []byte, name string, xs []string, omitEmpty bool) []byte {
	if omitEmpty && len(xs) == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, name...)
	if xs == nil {
		return append(b, `":null`...)
	}
	b = append(b, `":`...)
	j, _ := json.Marshal(xs)
	return append(b, j...)
}
