package catalog

// ContextRows are the standard library's calls that hand a context on
// inside a value instead of waiting under it (ContextCarrier), those
// that read a request without sending it (RequestReader), and those that
// run a function for callers other than the one that calls them
// (SharedRun: a context.Background() there serves them all), and the
// options that bind a library retry to a context (RetryContext). A
// context.Background() given to a carrier is a dropped context only if
// the value carrying it goes on to a call that waits: a clone made to be
// dumped to a log bounds nothing. They are kept out of Rows: a carrier
// may have a row of another role there (NewRequestWithContext is a
// RequestBuilder).
var ContextRows = []Row{
	{Path: NetHTTP, Name: "NewRequestWithContext", Role: ContextCarrier, ValueArg: 0},
	// Tracing puts a task, a span or propagated values on a context and
	// returns it; it neither waits nor bounds anything.
	{Path: "runtime/trace", Name: "NewTask", Role: ValueDeriver, ValueArg: 0},
	{Path: "go.opentelemetry.io/otel/trace", Recv: "Tracer", Name: "Start", Role: ValueDeriver, ValueArg: 0},
	{Path: "go.opentelemetry.io/otel/trace", Name: "ContextWithSpan", Role: ValueDeriver, ValueArg: 0},
	{Path: "go.opentelemetry.io/otel/trace", Name: "ContextWithSpanContext", Role: ValueDeriver, ValueArg: 0},
	{Path: "go.opentelemetry.io/otel/propagation", Recv: "TextMapPropagator", Name: "Extract", Role: ValueDeriver, ValueArg: 0},
	{Path: NetHTTP, Recv: "Request", Name: "Clone", Role: ContextCarrier, ValueArg: 0},
	{Path: NetHTTP, Recv: "Request", Name: "WithContext", Role: ContextCarrier, ValueArg: 0},
	{Path: "net/http/httputil", Name: "DumpRequestOut", Role: RequestReader, ValueArg: 0},
	{Path: "net/http/httputil", Name: "DumpRequest", Role: RequestReader, ValueArg: 0},
	// A router asked which handler a request would go to: it reads the
	// method, host and path, in memory.
	{Path: NetHTTP, Recv: "ServeMux", Name: "Handler", Role: RequestReader, ValueArg: 0},
	{Path: "github.com/gorilla/mux", Recv: "Router", Name: "Match", Role: RequestReader, ValueArg: 0},
	{Path: "github.com/gorilla/mux", Recv: "Route", Name: "Match", Role: RequestReader, ValueArg: 0},
	{Path: "sync", Recv: "Once", Name: "Do", Role: SharedRun, ValueArg: 0},
	{Path: "sync", Name: "OnceFunc", Role: SharedRun, ValueArg: 0},
	{Path: "sync", Name: "OnceValue", Role: SharedRun, ValueArg: 0},
	{Path: "sync", Name: "OnceValues", Role: SharedRun, ValueArg: 0},
	{Path: "golang.org/x/sync/singleflight", Recv: "Group", Name: "Do", Role: SharedRun, ValueArg: 1},
	{Path: "golang.org/x/sync/singleflight", Recv: "Group", Name: "DoChan", Role: SharedRun, ValueArg: 1},
	{Path: NetHTTP, Recv: "Server", Name: "Shutdown", Role: OwnShutdown, ValueArg: 0},
	// OpenTelemetry's metric readers collect the measurements the
	// process's own meter provider aggregated; exporting them is another
	// call (an exporter's Export, a reader's ForceFlush).
	{Path: "go.opentelemetry.io/otel/sdk/metric", Recv: "ManualReader", Name: "Collect", Role: InProcess, ValueArg: 0},
	{Path: "go.opentelemetry.io/otel/sdk/metric", Recv: "PeriodicReader", Name: "Collect", Role: InProcess, ValueArg: 0},
	// aws-sdk-go-v2's LoadDefaultConfig reads the environment and the
	// shared config and credentials files; the credentials providers
	// it sets up reach the network only when a client signs a request,
	// under that request's context. (Only its WithEC2IMDSRegion option
	// asks the instance metadata service at load time.)
	{Path: "github.com/aws/aws-sdk-go-v2/config", Name: "LoadDefaultConfig", Role: InProcess, ValueArg: 0},
	{Path: "github.com/aws/aws-sdk-go-v2/config", Name: "LoadSharedConfigProfile", Role: InProcess, ValueArg: 0},
	// Pub/Sub's Receive blocks until its context is done and returns nil
	// then; it returns an error only when the service answers with one it
	// does not retry (its documented contract).
	{Path: "cloud.google.com/go/pubsub", Recv: "Subscription", Name: "Receive", Role: UntilDone, ValueArg: 0},
	{Path: "cloud.google.com/go/pubsub/v2", Recv: "Subscriber", Name: "Receive", Role: UntilDone, ValueArg: 0},
	// cenkalti/backoff v4: Retry(op, backoff.WithContext(b, ctx)); without
	// it the BackOff stops only at MaxElapsedTime (15 minutes by
	// default) or its retry count.
	{Path: CenkaltiV4, Name: "WithContext", Role: RetryContext, ValueArg: 1, Inner: 0},
	// So do its earlier majors.
	{Path: CenkaltiV3, Name: "WithContext", Role: RetryContext, ValueArg: 1, Inner: 0},
	{Path: CenkaltiV2, Name: "WithContext", Role: RetryContext, ValueArg: 1, Inner: 0},
	{Path: CenkaltiGopkg2, Name: "WithContext", Role: RetryContext, ValueArg: 1, Inner: 0},
	{Path: CenkaltiGopkg1, Name: "WithContext", Role: RetryContext, ValueArg: 1, Inner: 0},
	// avast/retry-go v4: Do(fn, retry.Context(ctx)); context.Background
	// otherwise.
	{Path: RetryGo, Name: "Context", Role: RetryContext, ValueArg: 0, Inner: -1},
	// grpc-go dials in the background unless told to block: Dial's
	// context.Background() (it runs DialContext under it) and a
	// Background given to DialContext bound nothing then.
	{Path: GRPC, Name: "Dial", Role: LazyDial, BoundArg: 1, ValueArg: -1},
	{Path: GRPC, Name: "DialContext", Role: LazyDial, BoundArg: 2, ValueArg: 0},
	{Path: GRPC, Name: "WithBlock", Role: BlockingOption},
	{Path: GRPC, Name: "WithReturnConnectionError", Role: BlockingOption},
	// The standard library's calls that work under no context, where a
	// variant takes one. A request made by NewRequest carries
	// context.Background().
	{Path: NetHTTP, Name: "NewRequest", Role: ContextLess, WithCtx: "NewRequestWithContext"},
	{Path: NetHTTP, Name: "Get", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Name: "Head", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Name: "Post", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Name: "PostForm", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Recv: "Client", Name: "Get", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Recv: "Client", Name: "Head", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Recv: "Client", Name: "Post", Role: ContextLess, CtxUse: useRequest},
	{Path: NetHTTP, Recv: "Client", Name: "PostForm", Role: ContextLess, CtxUse: useRequest},
	{Path: "net", Name: "Dial", Role: ContextLess, CtxUse: "a net.Dialer's DialContext"},
	{Path: "net", Name: "DialTimeout", Role: ContextLess, CtxUse: "a net.Dialer's DialContext", Bounded: true, BoundArg: 2},
	{Path: "net", Recv: "Dialer", Name: "Dial", Role: ContextLess, WithCtx: "DialContext", Bounded: true, BoundArg: -1},
	{Path: "crypto/tls", Name: "Dial", Role: ContextLess, CtxUse: "a tls.Dialer's DialContext"},
	{Path: "crypto/tls", Name: "DialWithDialer", Role: ContextLess, CtxUse: "a tls.Dialer's DialContext", Bounded: true, BoundArg: 0},
	{Path: "crypto/tls", Recv: "Dialer", Name: "Dial", Role: ContextLess, WithCtx: "DialContext"},
	// A handshake is bounded by its connection: one of the code's own
	// transport, or one given a deadline first (ownBound).
	{Path: "crypto/tls", Recv: "Conn", Name: "Handshake", Role: ContextLess, WithCtx: "HandshakeContext", Bounded: true, BoundArg: -1},
	// net's lookups ask the resolver under context.Background(); the
	// default resolver's methods take the caller's context. (LookupIP's
	// sibling also takes the network: "ip".)
	{Path: "net", Name: "LookupHost", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupHost"},
	{Path: "net", Name: "LookupAddr", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupAddr"},
	{Path: "net", Name: "LookupCNAME", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupCNAME"},
	{Path: "net", Name: "LookupSRV", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupSRV"},
	{Path: "net", Name: "LookupMX", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupMX"},
	{Path: "net", Name: "LookupNS", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupNS"},
	{Path: "net", Name: "LookupTXT", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupTXT"},
	{Path: "net", Name: "LookupPort", Role: ContextLess, Via: "DefaultResolver", WithCtx: "LookupPort"},
	{Path: "net", Name: "LookupIP", Role: ContextLess, CtxUse: `net.DefaultResolver.LookupIP(ctx, "ip", host)`},
	// database/sql's methods that run under context.Background(). Not
	// Prepare: PrepareContext's context covers only the preparation, and
	// each execution of the statement is judged at its own call.
	{Path: "database/sql", Recv: "DB", Name: "Exec", Role: ContextLess, WithCtx: "ExecContext"},
	{Path: "database/sql", Recv: "DB", Name: "Query", Role: ContextLess, WithCtx: "QueryContext"},
	{Path: "database/sql", Recv: "DB", Name: "QueryRow", Role: ContextLess, WithCtx: "QueryRowContext"},
	{Path: "database/sql", Recv: "DB", Name: "Ping", Role: ContextLess, WithCtx: "PingContext"},
	{Path: "database/sql", Recv: "Tx", Name: "Exec", Role: ContextLess, WithCtx: "ExecContext"},
	{Path: "database/sql", Recv: "Tx", Name: "Query", Role: ContextLess, WithCtx: "QueryContext"},
	{Path: "database/sql", Recv: "Tx", Name: "QueryRow", Role: ContextLess, WithCtx: "QueryRowContext"},
	{Path: "database/sql", Recv: "Stmt", Name: "Exec", Role: ContextLess, WithCtx: "ExecContext"},
	{Path: "database/sql", Recv: "Stmt", Name: "Query", Role: ContextLess, WithCtx: "QueryContext"},
	{Path: "database/sql", Recv: "Stmt", Name: "QueryRow", Role: ContextLess, WithCtx: "QueryRowContext"},
	{Path: "database/sql", Recv: "DB", Name: "Begin", Role: ContextLess, CtxUse: "BeginTx(ctx, nil)"},
}

// RetryContextOf returns the RetryContext row of path: the option that
// binds that library's retries to a context, or nil when its retries
// need none (they take a context argument) or are not catalogued.
func RetryContextOf(path string) *Row {
	for i := range ContextRows {
		if r := &ContextRows[i]; r.Role == RetryContext && r.Path == path {
			return r
		}
	}
	return nil
}

// LookupContext returns the context row of path.recv.name, or nil.
func LookupContext(path, recv, name string) *Row {
	for i := range ContextRows {
		r := &ContextRows[i]
		if r.Path == path && r.Recv == recv && r.Name == name {
			return r
		}
	}
	return nil
}

// useRequest is what the http package's request shortcuts (Get, Post...)
// are replaced with, where they take no context.
const useRequest = "http.NewRequestWithContext and the client's Do"

// connDeadlines are the methods, by package and receiver type name, that
// set a deadline on a connection's reads (all of them, or reads alone):
// a net.Conn's, the *net.TCPConn's and kin (promoted from net's conn),
// a *tls.Conn's. A handshake after one is bounded by it.
var connDeadlines = map[[2]string]map[string]bool{
	{"net", "Conn"}:        {"SetDeadline": true, "SetReadDeadline": true},
	{"net", "conn"}:        {"SetDeadline": true, "SetReadDeadline": true},
	{"crypto/tls", "Conn"}: {"SetDeadline": true, "SetReadDeadline": true},
}

// SetsReadDeadline reports whether the method name of the type recv of
// package path sets a deadline on a connection's reads (connDeadlines).
func SetsReadDeadline(path, recv, name string) bool {
	return connDeadlines[[2]string{path, recv}][name]
}
