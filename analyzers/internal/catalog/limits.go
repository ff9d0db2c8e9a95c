package catalog

// AdmissionRows are the calls that decide whether a server takes one more
// request now, by the load it measures: a rate limiter's count, the free
// slots of a semaphore or a bulkhead (Role Admission). A status written
// where one of them refused is the server shedding load, and a limiter
// knows when it will have room again; a status written for another
// reason (not ready yet, a dependency down) knows no such time. They are
// kept out of Rows: none of them retries or waits for a dependency.
var AdmissionRows = []Row{
	{Path: "golang.org/x/time/rate", Recv: "Limiter", Name: "Allow", Role: Admission},
	{Path: "golang.org/x/time/rate", Recv: "Limiter", Name: "AllowN", Role: Admission},
	{Path: "golang.org/x/time/rate", Recv: "Limiter", Name: "Reserve", Role: Admission},
	{Path: "golang.org/x/time/rate", Recv: "Limiter", Name: "ReserveN", Role: Admission},
	{Path: "golang.org/x/time/rate", Recv: "Limiter", Name: "Wait", Role: Admission},
	{Path: "golang.org/x/time/rate", Recv: "Limiter", Name: "WaitN", Role: Admission},
	{Path: "golang.org/x/sync/semaphore", Recv: "Weighted", Name: "TryAcquire", Role: Admission},
	{Path: "golang.org/x/sync/semaphore", Recv: "Weighted", Name: "Acquire", Role: Admission},
	{Path: ResilintBulkhead, Recv: "Bulkhead", Name: "TryAcquire", Role: Admission},
	{Path: ResilintBulkhead, Recv: "Bulkhead", Name: "Acquire", Role: Admission},
	{Path: ResilintBulkhead, Recv: "Bulkhead", Name: "Do", Role: Admission},
	{Path: ResilintRateLimit, Recv: "Limiter", Name: "Allow", Role: Admission},
	{Path: ResilintRateLimit, Recv: "Limiter", Name: "AllowN", Role: Admission},
}

// IsAdmission reports whether path.recv.name is an AdmissionRows call.
func IsAdmission(path, recv, name string) bool { return inRows(AdmissionRows, path, recv, name) }

// CountRows add to an atomic integer and return the sum (Role
// CountAdd): a function whose result reads that sum counts the requests
// in flight, the simplest limiter. One whose sum nobody reads is a metric
// or a slot given back.
var CountRows = []Row{
	{Path: "sync/atomic", Name: "AddInt32", Role: CountAdd},
	{Path: "sync/atomic", Name: "AddInt64", Role: CountAdd},
	{Path: "sync/atomic", Name: "AddUint32", Role: CountAdd},
	{Path: "sync/atomic", Name: "AddUint64", Role: CountAdd},
	{Path: "sync/atomic", Name: "AddUintptr", Role: CountAdd},
	{Path: "sync/atomic", Recv: "Int32", Name: "Add", Role: CountAdd},
	{Path: "sync/atomic", Recv: "Int64", Name: "Add", Role: CountAdd},
	{Path: "sync/atomic", Recv: "Uint32", Name: "Add", Role: CountAdd},
	{Path: "sync/atomic", Recv: "Uint64", Name: "Add", Role: CountAdd},
	{Path: "sync/atomic", Recv: "Uintptr", Name: "Add", Role: CountAdd},
}

// IsCountAdd reports whether path.recv.name is a CountRows call.
func IsCountAdd(path, recv, name string) bool { return inRows(CountRows, path, recv, name) }

// inRows reports whether rows hold path.recv.name.
func inRows(rows []Row, path, recv, name string) bool {
	for _, r := range rows {
		if r.Path == path && r.Recv == recv && r.Name == name {
			return true
		}
	}
	return false
}
