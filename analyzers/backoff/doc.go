// Package backoff defines an Analyzer that reports retry delays that
// synchronize clients, grow without bound, or are missing.
//
// # Analyzer backoff
//
// backoff: report retry delays without jitter or cap, retries with no delay, and retries with no bound
//
// When a dependency fails, every client sees the failure at about the same
// moment. If they all wait the same fixed (or exponentially growing, but
// identical) delay, they all come back at the same moment too: the
// dependency gets synchronized waves of retries, each as large as the
// traffic that broke it, right when it tries to recover. Jitter — a random
// delay — spreads the retries out; full jitter (uniform between zero and
// the backoff) spreads them flattest.
//
// Inside every retry the shared model recognizes, hand-written or from a
// library, the check reports:
//
//   - no-jitter: a delay with no random component: time.Sleep(time.Second),
//     time.Sleep(time.Duration(1<<attempt) * time.Second), a delay doubled
//     each iteration, timers and tickers with such durations, library
//     configurations without jitter (cenkalti/backoff RandomizationFactor 0
//     or a constant backoff, retry-go BackOffDelay or FixedDelay alone,
//     sethvargo/go-retry backoffs without WithJitter, go-retryablehttp's
//     DefaultBackoff, a wait.Backoff without Jitter, runtime/retry's
//     JitterNone), and the next delay of such a backoff value in a
//     hand-written loop (jpillora/backoff's b.Duration() without Jitter,
//     cenkalti's b.NextBackOff(), wait.Backoff's Step()). The fix wraps
//     the delay in runtime/retry's FullJitter, or sets the value's jitter
//     field;
//   - no-cap: exponential growth with no cap (the shift eventually
//     overflows into a negative or zero delay). The fix caps it with min;
//   - equal-jitter: a fixed half plus a random half drawn up to it
//     (d/2 + rand(d/2)); better than none, but full jitter spreads load
//     flatter after a recovery;
//   - seeded-jitter: jitter from a generator with a constant seed
//     (rand.New(rand.NewSource(42))) outside tests: every instance draws
//     the same "random" delays;
//   - no-delay: a retry that tries again at once: a retry storm;
//   - no-bound: a retry with no attempt limit, no elapsed-time cap and no
//     context check, that keeps hammering a dependency that is down (not
//     one whose every wait grows exponentially to a cap: a reconnect made
//     to run through a long outage).
//
// A sleep in a loop that is not a retry (polling, a ticker-driven worker)
// is not a retry delay and is not reported.
package backoff
