package catalog

// ContextRows are the standard library's calls that hand a context on
// inside a value instead of waiting under it (ContextCarrier), those
// that read a request without sending it (RequestReader), and those that
// run a function for callers other than the one that calls them
// (SharedRun: a context.Background() there serves them all). A
// context.Background() given to a carrier is a dropped context only if
// the value carrying it goes on to a call that waits: a clone made to be
// dumped to a log bounds nothing. They are kept out of Rows: a carrier
// may have a row of another role there (NewRequestWithContext is a
// RequestBuilder).
var ContextRows = []Row{
	{Path: NetHTTP, Name: "NewRequestWithContext", Role: ContextCarrier, ValueArg: 0},
	{Path: NetHTTP, Recv: "Request", Name: "Clone", Role: ContextCarrier, ValueArg: 0},
	{Path: NetHTTP, Recv: "Request", Name: "WithContext", Role: ContextCarrier, ValueArg: 0},
	{Path: "net/http/httputil", Name: "DumpRequestOut", Role: RequestReader, ValueArg: 0},
	{Path: "net/http/httputil", Name: "DumpRequest", Role: RequestReader, ValueArg: 0},
	{Path: "sync", Recv: "Once", Name: "Do", Role: SharedRun, ValueArg: 0},
	{Path: "sync", Name: "OnceFunc", Role: SharedRun, ValueArg: 0},
	{Path: "sync", Name: "OnceValue", Role: SharedRun, ValueArg: 0},
	{Path: "sync", Name: "OnceValues", Role: SharedRun, ValueArg: 0},
	{Path: "golang.org/x/sync/singleflight", Recv: "Group", Name: "Do", Role: SharedRun, ValueArg: 1},
	{Path: "golang.org/x/sync/singleflight", Recv: "Group", Name: "DoChan", Role: SharedRun, ValueArg: 1},
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
