package readkit

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Decode stores the value of n, a node of a parsed document, in the Go
// value v points to, as encoding/json's Unmarshal stores the same text:
// struct fields by their json tag (else their name), matched exactly and
// else regardless of case; keys that match no field are ignored; of a
// repeated key the last wins; null leaves a value as it is and sets a
// pointer, slice or map to nil. A *Node (or Node) receives the node
// itself, for a part the reader looks at more closely. Interfaces and
// arrays are not filled in (a value for one is a type error).
//
// A number is read from its text when the parser kept it
// ([JSONOptions.NumberText]), as encoding/json reads it: a uint64 beyond
// int64 fits, -0 is not an unsigned integer and is a negative zero
// float. Without the text, a number beyond int64 is a float and fits no
// integer, and -0 is 0.
//
// A value of the wrong type is a [*TypeError], with its line; Decode
// stops at the first.
func Decode(n *Node, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("readkit.Decode: want a non-nil pointer, got %T", v)
	}
	return decodeValue(n, rv.Elem(), decodePath{})
}

// decodePath is where Decode is: the struct type whose field it fills
// and the path of struct fields to the value, by their JSON names.
type decodePath struct {
	structName string
	fields     []string
}

// TypeError is a value that does not fit the Go type Decode stores it
// in, in encoding/json's UnmarshalTypeError's terms.
type TypeError struct {
	// Value is the JSON value: "string", "bool", "array", "object", or
	// "number", followed by the number when it is one the type cannot
	// hold ("number 1.5" for an integer).
	Value string
	Type  reflect.Type // the Go type of what it does not fit
	// Field is the path of struct fields to the value by their JSON
	// names, joined by dots ("throughput.elements"); "" at the top.
	Field string
	// Struct is the name of the Go struct type whose field the value is
	// for; "" at the top.
	Struct string
	Line   int
}

// Error is encoding/json's message for the same error.
func (e *TypeError) Error() string {
	if e.Struct != "" || e.Field != "" {
		return "json: cannot unmarshal " + e.Value + " into Go struct field " + e.Struct + "." + e.Field + " of type " + e.Type.String()
	}
	return "json: cannot unmarshal " + e.Value + " into Go value of type " + e.Type.String()
}

var nodeType = reflect.TypeFor[Node]()

func decodeValue(n *Node, v reflect.Value, path decodePath) error {
	if n.Kind == Null {
		switch v.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			v.SetZero()
		}
		return nil
	}
	if v.Kind() == reflect.Pointer {
		if v.Type().Elem() == nodeType {
			v.Set(reflect.ValueOf(n))
			return nil
		}
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	if v.Type() == nodeType {
		v.Set(reflect.ValueOf(n).Elem())
		return nil
	}
	mismatch := func(value string) error {
		return &TypeError{Value: value, Type: v.Type(), Field: strings.Join(path.fields, "."), Struct: path.structName, Line: n.Line}
	}
	switch n.Kind {
	case Bool:
		if v.Kind() != reflect.Bool {
			return mismatch("bool")
		}
		v.SetBool(n.Bool)
	case String, Time, LocalTime:
		if v.Kind() != reflect.String {
			return mismatch("string")
		}
		v.SetString(n.Text)
	case Int, Float:
		return decodeNumber(n, v, mismatch)
	case List:
		if v.Kind() != reflect.Slice {
			return mismatch("array")
		}
		l := n.Len()
		s := reflect.MakeSlice(v.Type(), l, l)
		for i := range l {
			if err := decodeValue(n.Elem(i), s.Index(i), path); err != nil {
				return err
			}
		}
		v.Set(s)
	case Map:
		switch v.Kind() {
		case reflect.Map:
			if v.Type().Key().Kind() != reflect.String {
				return mismatch("object")
			}
			if v.IsNil() {
				v.Set(reflect.MakeMapWithSize(v.Type(), len(n.Fields)))
			}
			for _, f := range n.Fields {
				x := reflect.New(v.Type().Elem()).Elem()
				if err := decodeValue(f.Val, x, path); err != nil {
					return err
				}
				v.SetMapIndex(reflect.ValueOf(f.Key).Convert(v.Type().Key()), x)
			}
		case reflect.Struct:
			fields := structFields(v.Type())
			for _, f := range n.Fields {
				sf, ok := fields.find(f.Key)
				if !ok {
					continue
				}
				in := decodePath{structName: v.Type().Name(), fields: append(path.fields[:len(path.fields):len(path.fields)], sf.name)}
				if err := decodeValue(f.Val, v.Field(sf.index), in); err != nil {
					return err
				}
			}
		default:
			return mismatch("object")
		}
	}
	return nil
}

func decodeNumber(n *Node, v reflect.Value, mismatch func(string) error) error {
	text := func() string {
		if n.Text != "" {
			return "number " + n.Text
		}
		s, _ := n.AsParam()
		return "number " + s
	}
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f, ok := n.Float, !math.IsInf(n.Float, 0)
		if n.Text != "" {
			var err error
			f, err = strconv.ParseFloat(n.Text, v.Type().Bits())
			ok = err == nil
		}
		if !ok || v.OverflowFloat(f) {
			return mismatch(text())
		}
		v.SetFloat(f)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, ok := n.Int, n.Kind == Int
		if n.Text != "" {
			var err error
			i, err = strconv.ParseInt(n.Text, 10, 64)
			ok = err == nil
		}
		if !ok || v.OverflowInt(i) {
			return mismatch(text())
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, ok := uint64(n.Int), n.Kind == Int && n.Int >= 0
		if n.Text != "" {
			var err error
			u, err = strconv.ParseUint(n.Text, 10, 64)
			ok = err == nil
		}
		if !ok || v.OverflowUint(u) {
			return mismatch(text())
		}
		v.SetUint(u)
	default:
		return mismatch("number")
	}
	return nil
}

// decodeField is a struct field Decode fills: its index and JSON name.
type decodeField struct {
	name  string
	index int
}

type decodeFields []decodeField

// find returns the field a key fills: the one of its exact name, else the
// first whose name matches regardless of case.
func (fs decodeFields) find(key string) (decodeField, bool) {
	for _, f := range fs {
		if f.name == key {
			return f, true
		}
	}
	for _, f := range fs {
		if strings.EqualFold(f.name, key) {
			return f, true
		}
	}
	return decodeField{}, false
}

var fieldCache sync.Map // reflect.Type → decodeFields

// structFields lists the exported fields of a struct type with their JSON
// names (embedded structs are not looked into).
func structFields(t reflect.Type) decodeFields {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.(decodeFields)
	}
	var fs decodeFields
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		name := sf.Name
		if tag, ok := sf.Tag.Lookup("json"); ok {
			tag, _, _ = strings.Cut(tag, ",")
			if tag == "-" {
				continue
			}
			if tag != "" {
				name = tag
			}
		}
		fs = append(fs, decodeField{name: name, index: i})
	}
	fieldCache.Store(t, fs)
	return fs
}
