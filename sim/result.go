package sim

import "time"

// Bucket is one step of a Result's time series.
type Bucket struct {
	// Calls are the downstream calls that arrived in the bucket, Retries
	// the ones among them that were not a logical request's first call,
	// Successes the calls that succeeded.
	Calls, Retries, Successes int64
	// InFlight is the most calls in flight at once; Waiting the most
	// clients waiting before a retry.
	InFlight, Waiting int
}

// Result is what one client did under one scenario.
type Result struct {
	Client, Scenario string
	Notes            []string

	// Requests are the logical requests; Finished of them ended by the
	// horizon (Unfinished did not).
	Requests, Finished, Unfinished int64
	// Calls are the downstream calls made; Retries the calls that were not
	// a logical request's first.
	Calls, Retries int64
	// Attempts per logical request that finished, counted as calls the
	// request tried to make (calls turned down on the client side
	// included).
	AttemptsMean float64
	AttemptsP99  int
	AttemptsMax  int
	// AttemptsHist[k] is how many logical requests made k attempts.
	AttemptsHist []int64

	// Successes and GiveUps are the logical requests that succeeded and
	// failed; the GiveUp fields say why they failed: attempts spent,
	// retry budget spent, a Retry-After longer than MaxDelay, an open
	// breaker, a full bulkhead, bad input (400, never retried), or another
	// error a layer does not retry (or no retry layer at all).
	Successes, GiveUps                                            int64
	GiveUpAttempts, GiveUpBudget, GiveUpRetryAfter, GiveUpBreaker int64
	GiveUpBulkhead, GiveUpInput, GiveUpOther                      int64
	// Fast rejections on the client side: calls turned down by an open
	// breaker, a full bulkhead, the limiter, and retries refused by the
	// budget.
	RejectBreaker, RejectBulkhead, RejectLimiter, RejectBudget int64
	// Shed are the calls the dependency turned away with a full queue.
	Shed int64

	// MaxInFlight is the most downstream calls in flight at once;
	// MaxWaiting the most clients waiting at once before a retry.
	MaxInFlight, MaxWaiting int

	// Recovery is the outage's end (HasRecovery). RetriesAfterRecovery are
	// the retries that reached the dependency from then on,
	// RetriesFirstSecond those of the first second.
	Recovery                                 time.Duration
	HasRecovery                              bool
	RetriesAfterRecovery, RetriesFirstSecond int64
	// PendingAtRecovery are the clients waiting, at the recovery, for a
	// retry due after it; PendingFirstSecond those of them whose retry
	// came in the first second after it.
	PendingAtRecovery, PendingFirstSecond int64
	// Drain is how long after the recovery the last logical request that
	// had failed a call before it ended: the backlog's drain time.
	Drain time.Duration
	// Crashes are the times the dependency fell over under load, and
	// Recoveries the times it came back from each (RestartTime later).
	Crashes, Recoveries []time.Duration

	// BreakerOpens and BreakerCloses count the transitions of the
	// client's breakers; FalseCloses the closes during a partial outage
	// (the trials that passed were of the healthy kind).
	BreakerOpens, BreakerCloses, FalseCloses int

	// Completion is when the last logical request ended; End when the
	// simulation stopped.
	Completion, End time.Duration

	// Series holds the time series, one Bucket per Resolution.
	Resolution time.Duration
	Series     []Bucket
	PeakCalls  int64
}

// FirstSecondShare is the share of the retries after the recovery that
// reached the dependency in the first second after it (0 without a
// recovery or without such retries).
func (r *Result) FirstSecondShare() float64 {
	if r.RetriesAfterRecovery == 0 {
		return 0
	}
	return float64(r.RetriesFirstSecond) / float64(r.RetriesAfterRecovery)
}

// PeakAfterRecovery is the most calls per second in the first second after
// the recovery (with a 1s resolution: that bucket's calls).
func (r *Result) PeakAfterRecovery() float64 {
	if !r.HasRecovery || len(r.Series) == 0 {
		return 0
	}
	res := r.Resolution
	var calls int64
	var peak float64
	for i := int(r.Recovery / res); i < len(r.Series) && time.Duration(i)*res < r.Recovery+time.Second; i++ {
		calls = r.Series[i].Calls
		peak = max(peak, float64(calls)*float64(time.Second)/float64(res))
	}
	return peak
}

// ReCrashes is how many times the dependency fell over again after it had
// recovered from the outage.
func (r *Result) ReCrashes() int {
	n := 0
	for _, c := range r.Crashes {
		if !r.HasRecovery || c >= r.Recovery {
			n++
		}
	}
	return n
}

// PendingShare is the share of the clients waiting at the recovery whose
// retry came in its first second.
func (r *Result) PendingShare() float64 {
	if r.PendingAtRecovery == 0 {
		return 0
	}
	return float64(r.PendingFirstSecond) / float64(r.PendingAtRecovery)
}
