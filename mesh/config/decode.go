package config

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
)

// decode fills m from the YAML node n, walking n with m's descriptor: it
// records the position of every field in fields, checks names and types
// on the way (so that an error has a line), turns Istio's durations
// ("25ms") into protobuf's JSON form, then unmarshals the JSON it built
// with protojson.
func decode(file string, n *yaml.Node, m proto.Message, fields Fields, what, skip string) error {
	w := &walker{file: file, fields: fields}
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return w.errorf(n, "%s: expected a mapping, got %s", what, describe(n))
	}
	v, err := w.fieldsOf(n, m.ProtoReflect().Descriptor(), "", skip)
	if err != nil {
		return err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return &Error{Pos: pos(file, n), Msg: what + ": " + err.Error()}
	}
	if err := protojson.Unmarshal(data, m); err != nil {
		return &Error{Pos: pos(file, n), Msg: "invalid " + what + ": " + err.Error()}
	}
	return nil
}

type walker struct {
	file   string
	fields Fields
	depth  int
	nodes  int // visited: YAML aliases can make a small file a huge tree
}

// maxNodes bounds the nodes one document may expand to through aliases
// (a "billion laughs" document is an error, not an hour of work).
const maxNodes = 1 << 20

// visit counts a node; it fails when the document expands too much.
func (w *walker) visit(n *yaml.Node) error {
	w.nodes++
	if w.nodes > maxNodes {
		return w.errorf(n, "the document expands to more than %d nodes (through aliases)", maxNodes)
	}
	return nil
}

// dropped marks a value left out of the JSON: an Any of a type this
// program does not link (a TLS context, a filter's config), which no check
// reads.
type dropped struct{}

func join(path string, elem any) string {
	if path == "" {
		return fmt.Sprint(elem)
	}
	return path + "." + fmt.Sprint(elem)
}

func (w *walker) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{Pos: pos(w.file, n), Msg: fmt.Sprintf(format, args...)}
}

func (w *walker) message(n *yaml.Node, md protoreflect.MessageDescriptor, path string) (any, error) {
	n = deref(n)
	if err := w.visit(n); err != nil {
		return nil, err
	}
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > 200 {
		return nil, w.errorf(n, "nested too deep")
	}
	switch md.FullName() {
	case "google.protobuf.Duration":
		if n.Kind != yaml.ScalarNode {
			return nil, w.errorf(n, "%s: expected a duration (\"2s\", \"250ms\"), got %s", path, describe(n))
		}
		return durationJSON(n.Value), nil
	case "google.protobuf.Timestamp", "google.protobuf.FieldMask":
		if n.Kind != yaml.ScalarNode {
			return nil, w.errorf(n, "%s: expected a string, got %s", path, describe(n))
		}
		return n.Value, nil
	case "google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue":
		return w.plain(n)
	case "google.protobuf.BoolValue", "google.protobuf.StringValue", "google.protobuf.BytesValue",
		"google.protobuf.Int32Value", "google.protobuf.Int64Value", "google.protobuf.UInt32Value",
		"google.protobuf.UInt64Value", "google.protobuf.FloatValue", "google.protobuf.DoubleValue":
		return w.scalar(n, md.Fields().ByName("value"), path)
	case "google.protobuf.Any":
		t := scalar(n, "@type")
		if t == "" {
			return nil, w.errorf(n, "%s: an Any without @type", path)
		}
		mt, err := protoregistry.GlobalTypes.FindMessageByURL(t)
		if err != nil {
			return dropped{}, nil
		}
		v, err := w.fieldsOf(n, mt.Descriptor(), path, "@type")
		if err != nil {
			return nil, err
		}
		v["@type"] = t
		return v, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, w.errorf(n, "%s: expected a mapping (%s), got %s", cmpOr(path, "the resource"), md.Name(), describe(n))
	}
	return w.fieldsOf(n, md, path, "")
}

func (w *walker) fieldsOf(n *yaml.Node, md protoreflect.MessageDescriptor, path, skip string) (map[string]any, error) {
	out := make(map[string]any)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if k.Value == skip {
			continue
		}
		if k.Value == "<<" {
			return nil, w.errorf(k, "YAML merge keys (<<) are not supported")
		}
		fd := md.Fields().ByJSONName(k.Value)
		if fd == nil {
			fd = md.Fields().ByName(protoreflect.Name(k.Value))
		}
		if fd == nil {
			return nil, w.errorf(k, "unknown field %q in %s", k.Value, md.FullName())
		}
		fpath := join(path, fd.Name())
		w.fields[fpath] = pos(w.file, k)
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue
		}
		var val any
		var err error
		switch {
		case fd.IsMap():
			if v.Kind != yaml.MappingNode {
				return nil, w.errorf(v, "%s: expected a mapping, got %s", fpath, describe(v))
			}
			m := make(map[string]any)
			for j := 0; j+1 < len(v.Content); j += 2 {
				mk, mv := v.Content[j], v.Content[j+1]
				epath := join(fpath, mk.Value)
				w.fields[epath] = pos(w.file, mk)
				x, err := w.value(mv, fd.MapValue(), epath)
				if err != nil {
					return nil, err
				}
				if _, drop := x.(dropped); !drop {
					m[mk.Value] = x
				}
			}
			val = m
		case fd.IsList():
			if v.Kind != yaml.SequenceNode {
				return nil, w.errorf(v, "%s: expected a list, got %s", fpath, describe(v))
			}
			var l []any
			for j, item := range v.Content {
				epath := join(fpath, j)
				w.fields[epath] = pos(w.file, item)
				x, err := w.value(item, fd, epath)
				if err != nil {
					return nil, err
				}
				if _, drop := x.(dropped); !drop {
					l = append(l, x)
				}
			}
			val = l
		default:
			val, err = w.value(v, fd, fpath)
			if err != nil {
				return nil, err
			}
		}
		if _, drop := val.(dropped); drop {
			continue
		}
		out[fd.JSONName()] = val
	}
	return out, nil
}

func (w *walker) value(n *yaml.Node, fd protoreflect.FieldDescriptor, path string) (any, error) {
	n = deref(n)
	if fd.Kind() == protoreflect.MessageKind || fd.Kind() == protoreflect.GroupKind {
		return w.message(n, fd.Message(), path)
	}
	return w.scalar(n, fd, path)
}

func (w *walker) scalar(n *yaml.Node, fd protoreflect.FieldDescriptor, path string) (any, error) {
	n = deref(n)
	if err := w.visit(n); err != nil {
		return nil, err
	}
	if n.Kind != yaml.ScalarNode {
		return nil, w.errorf(n, "%s: expected a %s, got %s", path, kindName(fd.Kind()), describe(n))
	}
	switch fd.Kind() {
	case protoreflect.StringKind, protoreflect.BytesKind:
		return n.Value, nil
	case protoreflect.BoolKind:
		if n.Tag != "!!bool" {
			return nil, w.errorf(n, "%s: expected true or false, got %s", path, describe(n))
		}
		return n.Value == "true", nil
	case protoreflect.EnumKind:
		if n.Tag == "!!int" {
			return json.Number(n.Value), nil
		}
		if fd.Enum().Values().ByName(protoreflect.Name(n.Value)) == nil {
			return nil, w.errorf(n, "%s: unknown value %s of %s", path, describe(n), fd.Enum().FullName())
		}
		return n.Value, nil
	}
	// Numbers.
	switch n.Tag {
	case "!!int", "!!float":
		if _, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); err != nil {
			return n.Value, nil // protojson's error then
		}
		return json.Number(strings.ReplaceAll(n.Value, "_", "")), nil
	case "!!str":
		if _, err := strconv.ParseFloat(n.Value, 64); err == nil {
			return n.Value, nil // protojson reads quoted numbers
		}
	}
	return nil, w.errorf(n, "%s: expected a number, got %s", path, describe(n))
}

func kindName(k protoreflect.Kind) string {
	switch k {
	case protoreflect.StringKind, protoreflect.BytesKind, protoreflect.EnumKind:
		return "string"
	case protoreflect.BoolKind:
		return "boolean"
	}
	return "number"
}

// plain converts free-form YAML (a Struct or Value) to JSON values.
func (w *walker) plain(n *yaml.Node) (any, error) {
	n = deref(n)
	if err := w.visit(n); err != nil {
		return nil, err
	}
	w.depth++
	defer func() { w.depth-- }()
	if w.depth > 200 {
		return nil, w.errorf(n, "nested too deep")
	}
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any)
		for i := 0; i+1 < len(n.Content); i += 2 {
			v, err := w.plain(n.Content[i+1])
			if err != nil {
				return nil, err
			}
			m[n.Content[i].Value] = v
		}
		return m, nil
	case yaml.SequenceNode:
		l := []any{}
		for _, c := range n.Content {
			v, err := w.plain(c)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		return l, nil
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return nil, nil
		case "!!bool":
			return n.Value == "true", nil
		case "!!int", "!!float":
			if _, err := strconv.ParseFloat(n.Value, 64); err == nil {
				return json.Number(n.Value), nil
			}
		}
		return n.Value, nil
	}
	return nil, w.errorf(n, "unexpected YAML node")
}

// durationJSON turns a duration as Istio and Kubernetes write it ("1h",
// "2m", "250ms", "1.5s") into protobuf's JSON form ("0.250s"); anything
// else is left for protojson to judge.
func durationJSON(s string) string {
	d, err := time.ParseDuration(s)
	if err != nil {
		return s
	}
	sec := d / time.Second
	ns := d % time.Second
	if ns < 0 {
		ns = -ns
	}
	if ns == 0 {
		return strconv.FormatInt(int64(sec), 10) + "s"
	}
	sign := ""
	if d < 0 && sec == 0 {
		sign = "-"
	}
	return fmt.Sprintf("%s%d.%09ds", sign, sec, ns)
}
