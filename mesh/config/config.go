package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"go.yaml.in/yaml/v3"
	networking "istio.io/api/networking/v1alpha3"
)

// A Position is a place in a manifest: file, line and column (1-based;
// 0 when not known).
type Position struct {
	File         string
	Line, Column int
}

func (p Position) String() string {
	s := p.File
	if p.Line > 0 {
		s += ":" + strconv.Itoa(p.Line)
		if p.Column > 0 {
			s += ":" + strconv.Itoa(p.Column)
		}
	}
	return s
}

// IsValid reports whether p names a file.
func (p Position) IsValid() bool { return p.File != "" }

// Fields records where each field of a resource was written, by path:
// proto field names and list indexes (or map keys) joined by dots,
// relative to the resource ("http.0.retries.attempts" in a
// VirtualService's spec, "virtual_hosts.1.routes.0.route.timeout" in an
// Envoy RouteConfiguration).
type Fields map[string]Position

// Pos returns where the field at path was written or, when it was not,
// where its nearest written ancestor was: a missing field is reported at
// the block that should hold it.
func (f Fields) Pos(path ...any) Position {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprint(p)
	}
	for n := len(parts); n > 0; n-- {
		if p, ok := f[strings.Join(parts[:n], ".")]; ok {
			return p
		}
	}
	return f[""]
}

// Has reports whether the field at path was written.
func (f Fields) Has(path ...any) bool {
	parts := make([]string, len(path))
	for i, p := range path {
		parts[i] = fmt.Sprint(p)
	}
	_, ok := f[strings.Join(parts, ".")]
	return ok
}

// An Object is what every resource read has: where it is, what it is.
type Object struct {
	Pos        Position // the document (its kind, or its first line)
	APIVersion string   // "networking.istio.io/v1"; "" for Envoy resources
	Kind       string   // "VirtualService"; the message name for Envoy ("RouteConfiguration")
	Name       string   // metadata.name, or the Envoy resource's name
	Namespace  string   // metadata.namespace; "" when not given
	Fields     Fields   // of the spec (Istio) or of the resource (Envoy)
}

// VirtualService is an Istio VirtualService.
type VirtualService struct {
	Object
	Spec *networking.VirtualService
}

// DestinationRule is an Istio DestinationRule.
type DestinationRule struct {
	Object
	Spec *networking.DestinationRule
}

// RouteConfiguration is an Envoy v3 route configuration, on its own or
// taken from a listener's HTTP connection manager.
type RouteConfiguration struct {
	Object
	Config *routev3.RouteConfiguration
}

// Cluster is an Envoy v3 cluster.
type Cluster struct {
	Object
	Config *clusterv3.Cluster
}

// Service is a Kubernetes Service: only its name and namespace are kept,
// as a host of the mesh.
type Service struct {
	Object
}

// A File is a manifest read, with its content (for positions and
// context lines).
type File struct {
	Name string
	Data []byte
}

// Set is the mesh configuration read from files.
type Set struct {
	VirtualServices  []*VirtualService
	DestinationRules []*DestinationRule
	Routes           []*RouteConfiguration
	Clusters         []*Cluster
	Services         []*Service
	Files            []File
	// Skipped counts the documents of other API groups (Deployments,
	// ConfigMaps...) and the Istio kinds no check reads (Gateway...).
	Skipped int
}

// An Error is invalid input, with where it is.
type Error struct {
	Pos Position
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Extensions are the file name endings read in a directory.
var Extensions = []string{".yaml", ".yml", ".json"}

// Load reads the manifests at the paths: files, whatever their name, and
// directories, walked for files ending in one of Extensions. The error
// joins one *Error per invalid document; the documents that were valid
// are in the Set all the same.
func Load(paths ...string) (*Set, error) {
	s := new(Set)
	var errs []error
	for _, root := range paths {
		info, err := os.Stat(root)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if !info.IsDir() {
			errs = append(errs, s.ReadFile(root))
			continue
		}
		err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != root && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if slices.Contains(Extensions, strings.ToLower(filepath.Ext(path))) {
				errs = append(errs, s.ReadFile(path))
			}
			return nil
		})
		errs = append(errs, err)
	}
	return s, errors.Join(errs...)
}

// ReadFile reads one manifest file.
func (s *Set) ReadFile(name string) error {
	data, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	return s.Parse(name, data)
}

// yamlLine finds the line in a YAML parser's message, the only place
// go.yaml.in/yaml/v3 gives it ("yaml: line 7: mapping values are not
// allowed in this context").
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): `)

// Parse reads the YAML or JSON documents in data, read from the file name.
func (s *Set) Parse(name string, data []byte) error {
	s.Files = append(s.Files, File{Name: name, Data: data})
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var errs []error
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err == io.EOF {
			break
		}
		if err != nil {
			msg := err.Error()
			pos := Position{File: name}
			if m := yamlLine.FindStringSubmatch(msg); m != nil {
				pos.Line, _ = strconv.Atoi(m[1])
				msg = msg[len(m[0]):]
				// The parser's own errors ("did not find expected key")
				// give a 0-based line, its scanner's a 1-based one
				// (go.yaml.in/yaml/v3's parser.fail adds 1 for scanner
				// errors only): the line of the block or flow collection
				// that is not closed, or of the offending token.
				if strings.HasPrefix(msg, "did not find expected ") {
					pos.Line++
				}
			} else {
				msg = strings.TrimPrefix(msg, "yaml: ")
			}
			errs = append(errs, &Error{Pos: pos, Msg: "invalid YAML: " + msg})
			break // the decoder cannot go on after a syntax error
		}
		if len(doc.Content) == 0 {
			continue
		}
		if err := s.document(name, doc.Content[0]); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func pos(file string, n *yaml.Node) Position {
	return Position{File: file, Line: n.Line, Column: n.Column}
}

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// lookup returns the key and value nodes of key in a mapping.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], deref(m.Content[i+1])
		}
	}
	return nil, nil
}

func scalar(m *yaml.Node, key string) string {
	if _, v := lookup(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// istioKinds are the kinds of networking.istio.io: the first two are
// read, the others skipped.
var istioKinds = map[string]bool{
	"VirtualService": true, "DestinationRule": true,
	"Gateway": false, "ServiceEntry": false, "Sidecar": false, "EnvoyFilter": false,
	"WorkloadEntry": false, "WorkloadGroup": false, "ProxyConfig": false,
}

var istioVersions = []string{"v1", "v1beta1", "v1alpha3"}

// document reads one YAML document (or one item of a List).
func (s *Set) document(file string, n *yaml.Node) error {
	n = deref(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return &Error{Pos: pos(file, n), Msg: "expected a Kubernetes object or an Envoy resource (a mapping), got " + describe(n)}
	}
	if t := scalar(n, "@type"); t != "" {
		return s.envoy(file, n, t)
	}
	if k, _ := lookup(n, "static_resources"); k != nil {
		return s.bootstrap(file, n)
	}
	if k, _ := lookup(n, "staticResources"); k != nil {
		return s.bootstrap(file, n)
	}
	kindKey, kindNode := lookup(n, "kind")
	kind := scalar(n, "kind")
	apiVersion := scalar(n, "apiVersion")
	if kind == "" {
		return &Error{Pos: pos(file, n), Msg: "neither a Kubernetes object (no kind) nor an Envoy resource (no @type, no static_resources)"}
	}
	at := pos(file, kindKey)
	if _, items := lookup(n, "items"); strings.HasSuffix(kind, "List") && items != nil {
		if items.Kind != yaml.SequenceNode {
			return &Error{Pos: pos(file, items), Msg: kind + ": items is not a list"}
		}
		var errs []error
		for _, it := range items.Content {
			errs = append(errs, s.document(file, it))
		}
		return errors.Join(errs...)
	}
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		group, version = "", apiVersion
	}
	switch {
	case group == "networking.istio.io":
		read, known := istioKinds[kind]
		if !known {
			return &Error{Pos: pos(file, kindNode), Msg: fmt.Sprintf("unknown kind %q in networking.istio.io (read: VirtualService, DestinationRule)", kind)}
		}
		if !slices.Contains(istioVersions, version) {
			return &Error{Pos: pos(file, n), Msg: fmt.Sprintf("%s: unsupported version %q of networking.istio.io (read: v1, v1beta1, v1alpha3)", kind, version)}
		}
		if !read {
			s.Skipped++
			return nil
		}
		return s.istio(file, n, at, apiVersion, kind)
	case group == "" && version == "v1" && kind == "Service":
		_, md := lookup(n, "metadata")
		s.Services = append(s.Services, &Service{Object{Pos: at, APIVersion: apiVersion, Kind: kind, Name: scalar(md, "name"), Namespace: scalar(md, "namespace")}})
		return nil
	case apiVersion == "":
		return &Error{Pos: at, Msg: fmt.Sprintf("%s without apiVersion", kind)}
	}
	s.Skipped++
	return nil
}

func (s *Set) istio(file string, n *yaml.Node, at Position, apiVersion, kind string) error {
	_, md := lookup(n, "metadata")
	obj := Object{Pos: at, APIVersion: apiVersion, Kind: kind, Name: scalar(md, "name"), Namespace: scalar(md, "namespace"), Fields: Fields{"": at}}
	specKey, spec := lookup(n, "spec")
	if spec == nil {
		return &Error{Pos: at, Msg: kind + " " + obj.Name + " has no spec"}
	}
	obj.Fields[""] = pos(file, specKey)
	what := kind + " " + obj.Name
	switch kind {
	case "VirtualService":
		vs := &VirtualService{Object: obj, Spec: new(networking.VirtualService)}
		if err := decode(file, spec, vs.Spec, obj.Fields, what, ""); err != nil {
			return err
		}
		s.VirtualServices = append(s.VirtualServices, vs)
	case "DestinationRule":
		dr := &DestinationRule{Object: obj, Spec: new(networking.DestinationRule)}
		if err := decode(file, spec, dr.Spec, obj.Fields, what, ""); err != nil {
			return err
		}
		s.DestinationRules = append(s.DestinationRules, dr)
	}
	return nil
}

// Envoy type URLs read.
const (
	typePrefix        = "type.googleapis.com/"
	routeConfigType   = "envoy.config.route.v3.RouteConfiguration"
	clusterType       = "envoy.config.cluster.v3.Cluster"
	listenerType      = "envoy.config.listener.v3.Listener"
	discoveryRespType = "envoy.service.discovery.v3.DiscoveryResponse"
	hcmType           = "envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"
)

func (s *Set) envoy(file string, n *yaml.Node, typeURL string) error {
	at := pos(file, n)
	if k, _ := lookup(n, "@type"); k != nil {
		at = pos(file, k)
	}
	switch strings.TrimPrefix(typeURL, typePrefix) {
	case routeConfigType:
		return s.routeConfig(file, n, at, "")
	case clusterType:
		return s.cluster(file, n, at)
	case listenerType:
		return s.listener(file, n)
	case discoveryRespType:
		_, res := lookup(n, "resources")
		if res == nil {
			return nil
		}
		if res.Kind != yaml.SequenceNode {
			return &Error{Pos: pos(file, res), Msg: "DiscoveryResponse: resources is not a list"}
		}
		var errs []error
		for _, r := range res.Content {
			t := scalar(r, "@type")
			if t == "" {
				errs = append(errs, &Error{Pos: pos(file, r), Msg: "DiscoveryResponse resource without @type"})
				continue
			}
			errs = append(errs, s.envoy(file, deref(r), t))
		}
		return errors.Join(errs...)
	}
	return &Error{Pos: at, Msg: fmt.Sprintf("unknown Envoy @type %q (read: %s, %s, %s, %s)", typeURL, routeConfigType, clusterType, listenerType, discoveryRespType)}
}

func (s *Set) routeConfig(file string, n *yaml.Node, at Position, name string) error {
	rc := &RouteConfiguration{Object: Object{Pos: at, Kind: "RouteConfiguration", Fields: Fields{"": at}}, Config: new(routev3.RouteConfiguration)}
	if err := decode(file, n, rc.Config, rc.Fields, "RouteConfiguration", "@type"); err != nil {
		return err
	}
	rc.Name = cmpOr(rc.Config.GetName(), name)
	s.Routes = append(s.Routes, rc)
	return nil
}

func (s *Set) cluster(file string, n *yaml.Node, at Position) error {
	c := &Cluster{Object: Object{Pos: at, Kind: "Cluster", Fields: Fields{"": at}}, Config: new(clusterv3.Cluster)}
	if err := decode(file, n, c.Config, c.Fields, "Cluster", "@type"); err != nil {
		return err
	}
	c.Name = c.Config.GetName()
	s.Clusters = append(s.Clusters, c)
	return nil
}

// listener reads the route configurations inlined in a listener's HTTP
// connection managers; the rest of the listener is not read.
func (s *Set) listener(file string, n *yaml.Node) error {
	var errs []error
	chains := []*yaml.Node{}
	for _, key := range []string{"filter_chains", "filterChains"} {
		if _, fc := lookup(n, key); fc != nil && fc.Kind == yaml.SequenceNode {
			chains = append(chains, fc.Content...)
		}
	}
	for _, key := range []string{"default_filter_chain", "defaultFilterChain"} {
		if _, fc := lookup(n, key); fc != nil {
			chains = append(chains, fc)
		}
	}
	for _, ch := range chains {
		_, filters := lookup(ch, "filters")
		if filters == nil || filters.Kind != yaml.SequenceNode {
			continue
		}
		for _, f := range filters.Content {
			_, tc := lookup(f, "typed_config")
			if tc == nil {
				_, tc = lookup(f, "typedConfig")
			}
			if tc == nil || strings.TrimPrefix(scalar(tc, "@type"), typePrefix) != hcmType {
				continue
			}
			for _, key := range []string{"route_config", "routeConfig"} {
				if k, rc := lookup(tc, key); rc != nil {
					errs = append(errs, s.routeConfig(file, rc, pos(file, k), scalar(n, "name")))
				}
			}
		}
	}
	return errors.Join(errs...)
}

// bootstrap reads the clusters and listeners of a bootstrap's
// static_resources.
func (s *Set) bootstrap(file string, n *yaml.Node) error {
	_, sr := lookup(n, "static_resources")
	if sr == nil {
		_, sr = lookup(n, "staticResources")
	}
	var errs []error
	if _, cs := lookup(sr, "clusters"); cs != nil && cs.Kind == yaml.SequenceNode {
		for _, c := range cs.Content {
			errs = append(errs, s.cluster(file, deref(c), pos(file, c)))
		}
	}
	if _, ls := lookup(sr, "listeners"); ls != nil && ls.Kind == yaml.SequenceNode {
		for _, l := range ls.Content {
			errs = append(errs, s.listener(file, deref(l)))
		}
	}
	return errors.Join(errs...)
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return strconv.Quote(n.Value)
		}
		return n.Value
	}
	return "a YAML node"
}
