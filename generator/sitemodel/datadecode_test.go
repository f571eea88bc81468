package sitemodel

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
)

// TestDecodeSeriesData: the data file scanner reads what encoding/json
// reads, on a plan's data files and on a file with every column set
// (nulls, −0, texts, escapes), and refuses what encoding/json refuses.
func TestDecodeSeriesData(t *testing.T) {
	var files []SeriesData
	_, outs := planAll(t, smallDataset(t), smallOptions())
	for _, o := range outs {
		if d, ok := o.Data.(SeriesData); ok {
			files = append(files, d)
		}
	}
	var all SeriesData
	all.From, all.N = 64, 3
	all.IDs, all.Len, all.Benches, all.Bench = []string{"c_1", "c_\"2\"\\"}, []int{2, 1}, []string{"bench/ü", "x"}, []int{0, 1}
	all.Prev = []Exact{1.5, Exact(math.NaN())}
	all.Strings = []string{"", "line\nbreak", "tab\tand \u2028", "<b>&amp;</b>"}
	cols := reflect.ValueOf(&all.Columns).Elem()
	for i := range cols.NumField() {
		f := cols.Field(i)
		switch f.Type() {
		case reflect.TypeFor[[]int]():
			f.Set(reflect.ValueOf([]int{i, -i, 1 << 40}))
		case reflect.TypeFor[[]Exact]():
			f.Set(reflect.ValueOf([]Exact{Exact(math.NaN()), Exact(math.Copysign(0, -1)), 1.25e-300}))
		case reflect.TypeFor[[]Rounded]():
			f.Set(reflect.ValueOf([]Rounded{12345, Rounded(math.Inf(1)), -3.5e20}))
		case reflect.TypeFor[[]Fixed]():
			f.Set(reflect.ValueOf([]Fixed{{}, {set: true, neg: true}, {set: true, text: "≥ 0.5 %"}}))
		default:
			t.Fatalf("column %s of a type the test does not fill", cols.Type().Field(i).Name)
		}
	}
	files = append(files, all, SeriesData{IDs: []string{}, Len: []int{}})
	for i, d := range files {
		b, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var want, got SeriesData
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatalf("file %d: encoding/json: %v", i, err)
		}
		if err := unmarshalSeriesData(b, &got); err != nil {
			t.Fatalf("file %d: %v\n%s", i, err, b)
		}
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		if !bytes.Equal(wb, gb) {
			t.Errorf("file %d:\n got %s\nwant %s", i, gb, wb)
		}
		// Nil and empty columns alike (okLen tells them apart).
		if (want.Pos == nil) != (got.Pos == nil) || (want.T == nil) != (got.T == nil) || (want.IDs == nil) != (got.IDs == nil) {
			t.Errorf("file %d: nil and empty columns differ", i)
		}
	}
	for _, bad := range []string{``, `{`, `[]`, `{"pos":[1,2]`, `{"pos":[1,2]} x`, `{"pos":[1,,2]}`, `{"pos":[+1]}`, `{"v":[NaN]}`,
		`{"v":[0x10]}`, `{"pos":[1.5]}`, `{"nope":[1]}`, `{"pos":{"a":1}}`, `{"ids":[["a"]]}`, `{"t":[01]}`, `{"from":"1"}`, `{"str":["a\qb"]}`} {
		var want, got SeriesData
		if json.Unmarshal([]byte(bad), &want) == nil && bad != `{"nope":[1]}` {
			t.Errorf("%s: encoding/json reads it; the test expects a file it refuses", bad)
		}
		if unmarshalSeriesData([]byte(bad), &got) == nil {
			t.Errorf("%s: read as a data file", bad)
		}
	}
}
