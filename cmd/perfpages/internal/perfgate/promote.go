package perfgate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/perfpages/perfpages/generator/receipt"
)

// Normalized values of promote -normalize (perfgate's docs/DESIGN.md,
// "Promote Normalization").
const (
	normalizedRunID = "baseline"
	normalizedTime  = "1970-01-01T00:00:00Z"
)

// Promote copies the run receipt at src to dest, the new baseline. The
// source is validated first. Without normalize the bytes are copied
// unchanged; with normalize run.id becomes "baseline" and both timestamps
// 1970-01-01T00:00:00Z, so that re-promoting an identical run gives an
// identical file, while everything else (host, bench, samples, stats,
// fields this version does not know) is kept in its order and spelling.
// Like every receipt, src is read only when it is a regular file, within
// the default input cap.
// dest's folder is created when needed and the file is replaced
// atomically.
func Promote(src, dest string, normalize bool) error {
	data, err := receipt.ReadRunFile(src)
	if err != nil {
		return err
	}
	if normalize {
		if data, err = normalizeRun(data); err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
	}
	if err := WriteFile(dest, data); err != nil {
		return pathError(dest, err)
	}
	return nil
}

// normalizeRun rewrites run.id, run.started_at and run.ended_at of a run
// receipt and keeps every other member as it is, in its order; the result
// is indented like the receipts perfpages writes.
func normalizeRun(data []byte) ([]byte, error) {
	top, err := orderedObject(data)
	if err != nil {
		return nil, err
	}
	found := false
	for i, m := range top {
		if m.key != "run" {
			continue
		}
		run, err := orderedObject(m.value)
		if err != nil {
			return nil, fmt.Errorf("run: %w", err)
		}
		run = run.set("id", normalizedRunID).set("started_at", normalizedTime).set("ended_at", normalizedTime)
		top[i].value = run.encode()
		found = true
	}
	if !found {
		return nil, errors.New(`missing field "run"`)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, top.encode(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

type member struct {
	key   string
	value json.RawMessage
}

// members is a JSON object with its members in document order.
type members []member

// orderedObject splits a JSON object into its members, in order.
func orderedObject(data []byte) (members, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var ms members
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, errors.New("not a JSON object")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return ms, nil
}

// set replaces the value of every member named key with the string v, or
// appends the member when there is none.
func (ms members) set(key, v string) members {
	raw, _ := json.Marshal(v)
	found := false
	for i := range ms {
		if ms[i].key == key {
			ms[i].value = raw
			found = true
		}
	}
	if !found {
		ms = append(ms, member{key, raw})
	}
	return ms
}

func (ms members) encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}
