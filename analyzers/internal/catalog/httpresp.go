package catalog

// HTTP response knowledge: the calls that write a response status, that
// set or read a header, and that give a response's headers. The model's
// httpstatus and respheader layers interpret these rows.

// HTTPRole is what a catalogued net/http API does to a response.
type HTTPRole int

const (
	// HTTPWriteStatus writes the status StatusArg on the ResponseWriter
	// WriterArg (-1: the receiver); the headers are sent with it.
	HTTPWriteStatus HTTPRole = iota + 1
	// HTTPHeaderOf returns the header map of its receiver.
	HTTPHeaderOf
	// HTTPHeaderSet sets the header named by argument KeyArg on the
	// http.Header receiver.
	HTTPHeaderSet
	// HTTPHeaderGet reads the header named by argument KeyArg of the
	// http.Header receiver.
	HTTPHeaderGet
)

// HTTPRow is one catalogued net/http API.
type HTTPRow struct {
	Path      string
	Recv      string
	Name      string
	Role      HTTPRole
	WriterArg int
	StatusArg int
	KeyArg    int
}

// HTTPRows is the HTTP response part of the catalog.
var HTTPRows = []HTTPRow{
	{Path: NetHTTP, Recv: "ResponseWriter", Name: "WriteHeader", Role: HTTPWriteStatus, WriterArg: -1, StatusArg: 0},
	{Path: NetHTTP, Name: "Error", Role: HTTPWriteStatus, WriterArg: 0, StatusArg: 2},
	{Path: NetHTTP, Recv: "ResponseWriter", Name: "Header", Role: HTTPHeaderOf},
	{Path: NetHTTP, Recv: "Header", Name: "Set", Role: HTTPHeaderSet, KeyArg: 0},
	{Path: NetHTTP, Recv: "Header", Name: "Add", Role: HTTPHeaderSet, KeyArg: 0},
	{Path: NetHTTP, Recv: "Header", Name: "Get", Role: HTTPHeaderGet, KeyArg: 0},
	{Path: NetHTTP, Recv: "Header", Name: "Values", Role: HTTPHeaderGet, KeyArg: 0},
}

// ComeBackHeaders are the response headers that tell a refused client
// when to come back, in canonical form: Retry-After (RFC 9110), the
// RateLimit-Reset and RateLimit fields of the IETF rate-limit headers
// draft, the X-RateLimit-Reset that GitHub's and many rate limiters'
// responses carry, and the variants of known APIs: Twitter's
// X-Rate-Limit-Reset, Discord's X-RateLimit-Reset-After, OpenAI's
// X-RateLimit-Reset-Requests and -Tokens, Azure's Retry-After-Ms and
// X-Ms-Retry-After-Ms, and X-Retry-After.
var ComeBackHeaders = []string{
	"Retry-After", "Ratelimit-Reset", "Ratelimit", "X-Ratelimit-Reset",
	"X-Rate-Limit-Reset", "X-Ratelimit-Reset-After", "X-Ratelimit-Reset-Requests", "X-Ratelimit-Reset-Tokens",
	"Retry-After-Ms", "X-Ms-Retry-After-Ms", "X-Retry-After",
}

// RetryAdviceHeaders are response headers by which an API tells its
// clients whether to retry a request at all (Stripe's
// Stripe-Should-Retry, the X-Should-Retry of several API servers), in
// canonical form. A client that reads one defers to the server's own
// steering of its retries.
var RetryAdviceHeaders = []string{"Stripe-Should-Retry", "X-Should-Retry"}

// LookupHTTP returns the HTTP row of path.recv.name, or nil.
func LookupHTTP(path, recv, name string) *HTTPRow {
	for i := range HTTPRows {
		r := &HTTPRows[i]
		if r.Path == path && r.Recv == recv && r.Name == name {
			return r
		}
	}
	return nil
}
