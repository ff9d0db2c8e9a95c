//go:build unix

package sim

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far: on a shared,
// loaded machine it varies far less than the wall-clock time per op.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
