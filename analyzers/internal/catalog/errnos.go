package catalog

// errnoRows are the system error numbers a loop compares a failure with
// (errors.Is(err, syscall.ECONNREFUSED)), in syscall and x/sys/unix.
// Numbers no row names keep the model's old reading: no failure of the
// call (an EEXIST the loop expects).
var errnoRows = func() []Row {
	roles := []struct {
		name string
		role Role
	}{
		{"EINTR", Interrupted},
		{"EAGAIN", Interrupted},
		{"EWOULDBLOCK", Interrupted},
		{"ECONNREFUSED", Unsent},
		{"ECONNRESET", Outage},
		{"ECONNABORTED", Outage},
		{"ETIMEDOUT", Outage},
		{"EPIPE", Outage},
		{"EHOSTUNREACH", Outage},
		{"ENETUNREACH", Outage},
		{"ENETDOWN", Outage},
		{"EHOSTDOWN", Outage},
	}
	var rows []Row
	for _, path := range []string{"syscall", "golang.org/x/sys/unix"} {
		for _, r := range roles {
			rows = append(rows, Row{Path: path, Name: r.name, Role: r.role})
		}
	}
	return rows
}()
