// Package catalog is resilint's knowledge of library APIs, as data.
//
// Each Row names one function, method, type field or package variable of a
// library by import path and name and says what role it plays: a call that
// retries an operation, a client method that retries by itself, an option
// that sets the attempt bound, a wrapper that passes a bound through. The
// shared model (analyzers/internal/model) interprets the rows; adding a
// library is adding rows here, a stub under testdata/src at the library's
// import path, and fixtures. TestRowsResolve fails when a row does not
// resolve against its stub, so a misspelt row cannot be silently ignored.
package catalog

// Role is what a catalogued API does.
type Role int

const (
	// Retry: calling it runs the operation argument OpArg until it succeeds or
	// the bound found from BoundArg (or the receiver) is used up.
	Retry Role = iota + 1
	// RetrySend: a client method that sends a request and retries it by
	// itself (go-retryablehttp). Its bound comes from the receiver.
	RetrySend
	// RetryingClient: returns a client whose sends retry (retryablehttp's
	// StandardClient). The bound comes from the receiver.
	RetryingClient
	// Send: a plain client send (net/http). It retries only if its
	// receiver was made by a RetryingClient row.
	Send
	// Executor: builds an executor from policies (failsafe-go's With); the
	// policies are the arguments from BoundArg on.
	Executor
	// ExecutorWrapper: returns the executor it is called on, configured
	// (WithContext, Compose, OnDone, ...); policies given as arguments are
	// added.
	ExecutorWrapper
	// AttemptOption: an option or builder step that sets the number of
	// attempts to the constant argument ValueArg plus Plus. With Inner >= 0 (or
	// InnerRecv) the configured value it wraps is at that argument.
	AttemptOption
	// Unbounded: an option or constructor that removes any attempt bound.
	Unbounded
	// Wrapper: returns the backoff or policy at argument Inner (or its
	// receiver, InnerRecv) with some other setting changed; the bound passes
	// through.
	Wrapper
	// Constructor: returns a backoff, client or policy with Default attempts
	// (0: no attempt bound, only time).
	Constructor
	// AttemptField: a struct field whose value plus Plus is the number of
	// attempts; a literal without it has Default attempts.
	AttemptField
	// KnownVar: a package variable whose value has Default attempts.
	KnownVar
	// RetryPolicyType: values of this named type are retry policies (for
	// Executor rows).
	RetryPolicyType
	// DelayOption: an option, constructor or function value that chooses
	// how long to wait between attempts; Jitter says whether it is random.
	DelayOption
	// JitterField: a struct field whose zero value means no jitter
	// (RandomizationFactor, wait.Backoff's Jitter); Plus is unused.
	JitterField
	// ElapsedField: a struct field whose zero value means no time bound
	// (cenkalti/backoff v4's MaxElapsedTime).
	ElapsedField
	// Breaker: a call that runs the operation OpArg (-1: none, a two-step
	// permission) through a circuit breaker.
	Breaker
	// BreakerPolicyType: values of this named type are circuit breaker
	// policies (for Executor rows).
	BreakerPolicyType
	// OpenError: a variable holding the error a breaker returns, without
	// calling the operation, while it is open.
	OpenError
	// OpenCheck: a function reporting whether an error is a breaker's
	// open rejection.
	OpenCheck
	// Permanent: a function marking an error as not to be retried.
	Permanent
	// RequestBuilder: makes an HTTP request whose method is the argument
	// ValueArg.
	RequestBuilder
	// KeyTransport: a RoundTripper type that adds idempotency keys to the
	// requests it sends.
	KeyTransport
	// PolicyField: a struct field holding the retry policy of the value;
	// a literal without it does not retry (1 attempt).
	PolicyField
	// EndSentinel: a variable holding the error that marks the end of a
	// stream or an iteration (io.EOF, iterator.Done): a loop that goes
	// round on it is reading on, not retrying a failure.
	EndSentinel
	// OpenState: a constant of a breaker's state type that means open; a
	// value of that type (what the breaker's state method returns)
	// compared with it is a check for an open breaker.
	OpenState
	// OpenMethod: a method of a protocol satisfied implicitly — any call
	// of a function or method of this name asks an error whether it is a
	// breaker's open rejection (runtime/retry stops on errors with
	// CircuitOpen() bool; other breakers' errors may have it too).
	OpenMethod
	// NotOperation: a method of a protocol satisfied implicitly whose
	// error is not the outcome of a downstream call — releasing a
	// resource (io.Closer's Close), reading a deferred or context error
	// (Err), unwrapping an error (Unwrap), waiting for work already
	// started (Wait). Any call of a function or method of this name is no
	// fallible operation.
	NotOperation
	// ErrorOption: an option of a retry policy that names errors (or
	// results) the retry treats specially; Errors says how (failsafe-go's
	// AbortOnErrors). Wrapper rows may carry Errors too (HandleErrors).
	ErrorOption
	// Conflict: a function reporting whether an error is an
	// optimistic-concurrency conflict (the state changed since it was
	// read), or a variable or constant holding that error. A loop that
	// goes round on it re-reads the state and tries a new write: it does
	// not retry a failed call.
	Conflict
	// Outage: a variable holding an error that a failing or overloaded
	// dependency gives every client alike (a connection cut short, a
	// deadline passed, no server answering). A retry loop that goes
	// round only on errors it compared with named values, none of them
	// an Outage row, retries a failure of the request's own state (a
	// conflict, no progress yet): clients do not meet it together.
	Outage
	// Unsent: a constant holding an error that says the request never
	// reached the server (the connection was refused): a failure an
	// outage gives every client, as Outage, after which the server has
	// done nothing a resend could repeat.
	Unsent
	// Interrupted: a constant holding an error that says a system call
	// was interrupted or would block (EINTR, EAGAIN): no failure of the
	// call, which is made again.
	Interrupted
	// HostLocal: a standard-library function or method whose work stays
	// on this host (a socket option, parsing an address): a retry whose
	// attempts make only such calls reaches no dependency another client
	// shares.
	HostLocal
	// HostBind: a standard-library function or method that binds a
	// listener on this host: what makes an attempt a host-local one. Its
	// network is the argument ValueArg and its address the next one
	// (ValueArg -1: no address, a file's socket).
	HostBind
	// HostLocalDial: a standard-library dial whose network argument
	// (ValueArg), when it names a Unix-domain socket (a constant "unix",
	// "unixgram" or "unixpacket", or a *net.UnixAddr's Network()),
	// reaches only this host; ValueArg -1: it always dials one
	// (DialUnix).
	HostLocalDial
	// Deferred: a standard-library function or method that keeps its
	// function argument ValueArg to run later, on another goroutine or
	// at another moment (time.AfterFunc, a finalizer, a shutdown hook):
	// a closure handed to it is not run where it is written.
	Deferred
	// PredicateField: a struct field holding the function the value asks,
	// after each attempt, whether to try again (its first result a bool:
	// go-retryablehttp's CheckRetry). A value whose every return gives
	// false never retries: the value makes one attempt, whatever its
	// attempt field says. Left out (the library's default predicate) or
	// set to a value the model cannot read (a parameter), it may retry.
	PredicateField
	// PredicateOption: an option whose argument ValueArg is the function
	// the retry asks, after each failure, whether to try again
	// (retry-go's RetryIf). One that never returns true makes the retry
	// one attempt, whatever the other options say.
	PredicateOption
	// ContextCarrier: a standard-library function or method that returns
	// a value carrying its context argument ValueArg (a request made or
	// cloned with it) and waits for nothing itself: the context bounds
	// whatever is later done with that value (contexts.go).
	ContextCarrier
	// RequestReader: a standard-library function that reads the request
	// at argument ValueArg on this host and sends it nowhere (a dump for
	// a log): the request's context bounds nothing there.
	RequestReader
	// SharedRun: a function or method that runs the function at argument
	// ValueArg once for every caller to come (sync.Once.Do,
	// sync.OnceValue), or once for all the callers waiting at the time
	// (singleflight's Group.Do): what that function does, and the result
	// it leaves, serves callers other than the one whose call ran it
	// (contexts.go).
	SharedRun
	// Admission: a call whose result says whether a rate limiter, a
	// semaphore or a bulkhead takes one more request now (a rate
	// limiter's Allow, a semaphore's TryAcquire) or makes the caller wait
	// for room (limits.go).
	Admission
	// NextDelay: a method that returns the next wait of the backoff
	// value it is called on (jpillora/backoff's Duration, cenkalti's
	// NextBackOff, wait.Backoff's Step). Grows and Capped give the shape
	// of its waits; Jitter, when set, their randomness whatever the
	// value (a constant backoff); left 0, the randomness is the value's
	// JitterField row of the same type: none when the literal that made
	// it leaves the field out or writes it zero.
	NextDelay
	// CountAdd: adds to an atomic integer and returns the sum
	// (limits.go): a function that reads the sum counts what is in
	// flight.
	CountAdd
	// RetryContext: the option (Inner -1: one more of the retry's
	// options) or wrapper (Inner: the backoff argument it wraps) that
	// binds a library retry to the context at argument ValueArg. The
	// Retry rows of its Path without it run under context.Background:
	// their attempts and waits go on when the caller's context is done
	// (contexts.go).
	RetryContext
	// OwnShutdown: a standard-library method that, given the context at
	// ValueArg, stops this process's own server and waits only for its
	// own work to end (http.Server.Shutdown): a context.Background()
	// there lets that cleanup finish whatever the caller does; the
	// caller's context could cut it short, or never end if the call
	// runs inside one of the server's own handlers (contexts.go).
	OwnShutdown
	// RetryInterceptor: returns a gRPC client interceptor that retries
	// every call made through the connection it is installed on, with the
	// options from BoundArg on (Variadic) and Default attempts when none
	// sets a bound. It runs nothing where it is called: only its
	// configuration is judged there (libconfig).
	RetryInterceptor
	// LazyDial: a dial that returns at once and connects in the
	// background, unless one of its options, from BoundArg on, is a
	// BlockingOption (gRPC's Dial and DialContext): a context given to it
	// (at ValueArg) bounds nothing then, and one it does not take drops
	// nothing.
	LazyDial
	// BlockingOption: an option that makes a LazyDial wait for the
	// connection (gRPC's WithBlock, WithReturnConnectionError).
	BlockingOption
	// Reconnect: a dial option that configures how a client connection
	// reconnects, for as long as it lives, with the struct at ValueArg
	// whose field Field holds the backoff (gRPC's WithConnectParams and
	// its Backoff). It runs nothing where it is called: only that
	// configuration is judged there (libconfig).
	Reconnect
	// ClockMethod: a method of an injected clock (an interface a test
	// can replace, or its real implementation) that does what the time
	// package's function of the same name does: Sleep waits its
	// duration, After returns a channel that fires after it, NewTimer,
	// Tick and NewTicker start one. A wait through it is read as
	// time's own.
	ClockMethod
	// MatchMethod: a method of the errors package's protocol satisfied
	// implicitly — an error type's `Is(error) bool` says whether another
	// error matches it (by code, by type). Any such method of this name
	// asked of a package-level error (`ErrNoQuorum.Is(err)`) picks out a
	// family of failures, as errors.Is would.
	MatchMethod
	// ValueDeriver: a function or method whose first result is the
	// context at argument ValueArg with values put on it (a trace task,
	// a span, propagated baggage) and nothing else: its deadline and
	// cancellation are the argument's, as context.WithValue's result's
	// are (contexts.go).
	ValueDeriver
	// InProcess: a function or method that, given the context at
	// ValueArg, reads what this process recorded (a metric reader
	// collecting the measurements its own SDK holds) or this host's own
	// configuration (environment variables and files: an SDK's config
	// loader, whose credentials are fetched later, under the context of
	// the call that needs them) and reaches nothing outside it: a
	// context.Background() there leaves no work running after the
	// caller gave up (contexts.go).
	InProcess
	// UntilDone: a call that runs until the context at ValueArg is done
	// and then returns nil, failing only on an error it does not retry
	// itself (Pub/Sub's Receive): a loop that leaves on its success is
	// bounded by that context, as if it checked it (contexts.go).
	UntilDone
	// Probe: a method that only asks whether a dependency answers and
	// does no work there (database/sql's Ping): a retry whose attempts
	// make only such calls is a readiness wait (the model's probes.go).
	Probe
	// SpecificCheck: a function reporting whether its error argument is
	// one named failure of no outage kind, as errors.Is with that
	// failure's value does (os.IsNotExist is errors.Is(err,
	// fs.ErrNotExist) in an older spelling): a loop that goes round on
	// its true branch goes round on that one failure.
	SpecificCheck
	// Unwrapper: a function of one error that returns the error it
	// wraps, or the innermost one (errors.Unwrap, github.com/pkg/errors'
	// Cause): a type asserted on what it returns picks out the failure
	// as a type asserted on the error itself does.
	Unwrapper
	// Pure: a standard-library function or method whose error depends
	// on its arguments alone (parsing a string, compiling a pattern): no
	// operation, since calling it again with the same input fails the
	// same way. A loop whose only fallible calls are such is no retry,
	// whatever it waits: it reaches nothing.
	Pure
	// ErrorMaker: a function that makes or wraps an error value from
	// what it is given (errors.New, fmt.Errorf): it does no work that
	// fails, and the error it returns is the code's own.
	ErrorMaker
	// Terminal: the process's standard input (os.Stdin), or a function
	// that reads it or the terminal (fmt.Scanln, x/term's
	// ReadPassword). Code that reads it, or hands it on (to a reader, to
	// a child process run in the foreground: an editor), waits for a
	// person, or for whatever feeds the process, for as long as they
	// take: a pass so paced is paced by its input, not by a delay.
	Terminal
	// ContextLess: a call that does its work (a dial, a handshake, a
	// request) under no context, one of the standard library's that has
	// a variant taking one (WithCtx, CtxUse). Other APIs are judged by
	// their siblings (CtxSuffixes) where they wrap them.
	ContextLess
)

// CtxSuffixes name the variant of a function or method that takes a
// context, by Go's convention: QueryContext beside Query,
// PutObjectWithContext beside PutObject. A sibling counts only if its
// signature is the same but for a context.Context first (and, for the
// WithContext form, variadic options last), it can fail, and the
// function runs it under context.Background() (a wrapper: the model's
// BgWrapperFact).
var CtxSuffixes = []string{"Context", "WithContext"}

// ContextGetter names the method by which a value hands out the context
// it carries, by Go's convention (*http.Request's Context()). A receiver
// whose type has it, taking nothing and returning a context.Context, and
// a method that gives the value another context and returns its type
// (WithContext, SetContext), carries a request's context for the
// methods called on it.
const ContextGetter = "Context"

// Errors says what a retry does with the errors an option names.
type Errors int

const (
	ErrorsRetried Errors = iota + 1 // they are retried (HandleErrors)
	ErrorsStop                      // the retry stops at once on them (AbortOnErrors)
)

// Jitter says what a DelayOption does to the randomness of delays.
type Jitter int

const (
	JitterNone Jitter = iota + 1 // waits a deterministic delay
	JitterAdds                   // adds jitter to what it wraps
	JitterHas                    // a delay with jitter of its own
	JitterZero                   // no wait at all
)

// Row is one catalogued API.
type Row struct {
	Path string // import path
	Recv string // receiver type name for methods, struct type for fields, "" otherwise
	Name string // function, method, field, variable or type name
	Role Role
	Lib  string // display name, e.g. "cenkalti/backoff"

	OpArg    int  // Retry: index of the operation argument
	BoundArg int  // Retry: index of the argument carrying the bound (-1: receiver)
	Variadic bool // Retry: BoundArg starts a variadic list of options

	ValueArg  int   // AttemptOption: index of the constant argument
	Plus      int64 // AttemptOption, AttemptField: attempts = value + Plus
	ZeroMeans int64 // AttemptOption, AttemptField: attempts when the value is 0 (-1: unbounded)
	Inner     int   // Wrapper, AttemptOption: argument that is wrapped (-1: none)
	InnerRecv bool  // Wrapper, AttemptOption: the receiver is wrapped

	Default int64 // attempts when nothing sets a bound (0: unknown/unbounded)

	// Field, for a Reconnect row, is the field of the struct at
	// ValueArg that holds the backoff.
	Field string

	// Disable says how to switch this library's retrying off, for messages.
	Disable string

	// Jitter is the randomness of a DelayOption (and of Constructor and
	// Retry rows that wait by themselves).
	Jitter Jitter
	// JitterFix, for a JitterNone row, is the jittered alternative a fix
	// can wrap it in or replace it with: "WithFullJitter" (a wrapper of
	// the same package), "CombineDelay+RandomDelay", "LinearJitterBackoff".
	JitterFix string
	// FixValue, for JitterField rows and the options that set such a
	// field (WithRandomizationFactor), is the value a fix sets; for a
	// DelayOption whose JitterFix is a sibling taking a jitter fraction
	// after the same arguments (BackoffLinearWithJitter), that fraction.
	FixValue string
	// Fixed, for a DelayOption or Constructor row: it waits its argument
	// ValueArg, unchanged, between every two attempts (a constant
	// backoff).
	Fixed bool

	// Method, for Send and RetrySend rows, is the HTTP method the call
	// always sends ("POST" for Post); empty when it sends the request
	// argument ReqArg.
	Method string
	ReqArg int

	// Errors, for ErrorOption rows and options that also pass a bound
	// through, says what the retry does with the errors given.
	Errors Errors

	// Grows and Capped, for NextDelay rows: the waits grow exponentially
	// with the calls, and never beyond a cap (a default one when the
	// value sets none).
	Grows, Capped bool

	// WithCtx, for a ContextLess row, is the sibling that takes a
	// context first and the same arguments after it, which a fix calls
	// instead ("NewRequestWithContext"); CtxUse, when there is none, is
	// what to use, for the message.
	WithCtx, CtxUse string
	// Via, for a ContextLess row of a package function, is the package
	// variable whose method WithCtx is the sibling: net.LookupHost's is
	// net.DefaultResolver.LookupHost.
	Via string
	// Bounded, for a ContextLess row, says the call may carry a bound of
	// its own: a timeout at argument BoundArg (DialTimeout's), or a
	// net.Dialer there (DialWithDialer's; -1: the receiver, a Dialer's
	// Dial) whose Timeout or Deadline is set; for a tls.Conn receiver
	// (Handshake), a connection that is no net connection of the standard
	// library or that is given a deadline first.
	Bounded bool
}

// Library import paths.
const (
	CenkaltiV4 = "github.com/cenkalti/backoff/v4"
	CenkaltiV5 = "github.com/cenkalti/backoff/v5"
	// The earlier majors of cenkalti/backoff, still imported by many
	// modules: the v4 API before data, generics and options.
	CenkaltiV3          = "github.com/cenkalti/backoff/v3"
	CenkaltiV2          = "github.com/cenkalti/backoff" // v0 to v2, +incompatible
	CenkaltiGopkg2      = "gopkg.in/cenkalti/backoff.v2"
	CenkaltiGopkg1      = "gopkg.in/cenkalti/backoff.v1"
	RetryGo             = "github.com/avast/retry-go/v4"
	SethRetry           = "github.com/sethvargo/go-retry"
	RetryableHTTP       = "github.com/hashicorp/go-retryablehttp"
	K8sRetry            = "k8s.io/client-go/util/retry"
	K8sWait             = "k8s.io/apimachinery/pkg/util/wait"
	Failsafe            = "github.com/failsafe-go/failsafe-go"
	FailsafeRP          = "github.com/failsafe-go/failsafe-go/retrypolicy"
	ResilintRetry       = "github.com/resilint/resilint/runtime/retry"
	ResilintBreaker     = "github.com/resilint/resilint/runtime/breaker"
	ResilintIdempotency = "github.com/resilint/resilint/runtime/idempotency"
	ResilintCallpath    = "github.com/resilint/resilint/runtime/callpath"
	ResilintBulkhead    = "github.com/resilint/resilint/runtime/bulkhead"
	ResilintRateLimit   = "github.com/resilint/resilint/runtime/ratelimit"
	GoBreaker           = "github.com/sony/gobreaker"
	GoBreakerV2         = "github.com/sony/gobreaker/v2"
	Hystrix             = "github.com/afex/hystrix-go/hystrix"
	Resiliency          = "github.com/eapache/go-resiliency/breaker"
	FailsafeCB          = "github.com/failsafe-go/failsafe-go/circuitbreaker"
	NetHTTP             = "net/http"
	IO                  = "io"
	APIIterator         = "google.golang.org/api/iterator"
	NATS                = "github.com/nats-io/nats.go"
	K8sAPIErrors        = "k8s.io/apimachinery/pkg/api/errors"
	JpilloraBackoff     = "github.com/jpillora/backoff"
	GRPCRetry           = "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	GRPCRetryV2         = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	GRPC                = "google.golang.org/grpc"
	GRPCBackoff         = "google.golang.org/grpc/backoff"
)

// DefaultResilintAttempts is runtime/retry's attempt count when
// Policy.MaxAttempts is zero.
const DefaultResilintAttempts = 3

// Rows is the catalog.
var Rows = []Row{
	// cenkalti/backoff v4: Retry*(operation, b BackOff, ...). Without
	// WithMaxRetries the bound is MaxElapsedTime (15 minutes by default).
	{Path: CenkaltiV4, Name: "Retry", Role: Retry, Lib: "backoff.Retry", OpArg: 0, BoundArg: 1},
	{Path: CenkaltiV4, Name: "RetryNotify", Role: Retry, Lib: "backoff.RetryNotify", OpArg: 0, BoundArg: 1},
	{Path: CenkaltiV4, Name: "RetryWithData", Role: Retry, Lib: "backoff.RetryWithData", OpArg: 0, BoundArg: 1},
	{Path: CenkaltiV4, Name: "RetryNotifyWithData", Role: Retry, Lib: "backoff.RetryNotifyWithData", OpArg: 0, BoundArg: 1},
	{Path: CenkaltiV4, Name: "RetryNotifyWithTimer", Role: Retry, Lib: "backoff.RetryNotifyWithTimer", OpArg: 0, BoundArg: 1},
	{Path: CenkaltiV4, Name: "RetryNotifyWithTimerAndData", Role: Retry, Lib: "backoff.RetryNotifyWithTimerAndData", OpArg: 0, BoundArg: 1},
	{Path: CenkaltiV4, Name: "WithMaxRetries", Role: AttemptOption, ValueArg: 1, Plus: 1, Inner: -1},
	{Path: CenkaltiV4, Name: "WithContext", Role: Wrapper, Inner: 0},
	{Path: CenkaltiV4, Name: "NewExponentialBackOff", Role: Constructor},
	{Path: CenkaltiV4, Recv: "ExponentialBackOff", Name: "RandomizationFactor", Role: JitterField, FixValue: "0.5"},
	{Path: CenkaltiV4, Recv: "ExponentialBackOff", Name: "MaxElapsedTime", Role: ElapsedField},
	{Path: CenkaltiV4, Name: "ZeroBackOff", Role: DelayOption, Jitter: JitterZero},
	{Path: CenkaltiV4, Name: "WithRandomizationFactor", Role: DelayOption, ValueArg: 0, FixValue: "0.5"},
	{Path: CenkaltiV4, Name: "WithMaxElapsedTime", Role: DelayOption, ValueArg: 0},
	{Path: CenkaltiV4, Name: "NewConstantBackOff", Role: Constructor, Jitter: JitterNone, Fixed: true},
	{Path: CenkaltiV4, Recv: "ExponentialBackOff", Name: "NextBackOff", Role: NextDelay, Grows: true, Capped: true},
	{Path: CenkaltiV4, Recv: "ConstantBackOff", Name: "NextBackOff", Role: NextDelay, Jitter: JitterNone},

	// cenkalti/backoff v5: Retry(ctx, operation, opts...).
	{Path: CenkaltiV5, Name: "Retry", Role: Retry, Lib: "backoff.Retry", OpArg: 1, BoundArg: 2, Variadic: true},
	{Path: CenkaltiV5, Name: "WithMaxTries", Role: AttemptOption, ValueArg: 0, ZeroMeans: -1, Inner: -1},
	{Path: CenkaltiV5, Name: "WithBackOff", Role: Wrapper, Inner: 0},
	{Path: CenkaltiV5, Name: "NewConstantBackOff", Role: Constructor, Jitter: JitterNone, Fixed: true},
	{Path: CenkaltiV5, Name: "NewExponentialBackOff", Role: Constructor},
	{Path: CenkaltiV5, Name: "ZeroBackOff", Role: DelayOption, Jitter: JitterZero},
	{Path: CenkaltiV5, Recv: "ExponentialBackOff", Name: "RandomizationFactor", Role: JitterField, FixValue: "0.5"},
	{Path: CenkaltiV5, Name: "WithMaxElapsedTime", Role: DelayOption, ValueArg: 0},
	{Path: CenkaltiV5, Recv: "ExponentialBackOff", Name: "NextBackOff", Role: NextDelay, Grows: true, Capped: true},
	{Path: CenkaltiV5, Recv: "ConstantBackOff", Name: "NextBackOff", Role: NextDelay, Jitter: JitterNone},

	// jpillora/backoff: a hand-written loop waits b.Duration() (or
	// ForAttempt(n)): Min growing by Factor to Max (10s when left out),
	// random only with Jitter set.
	{Path: JpilloraBackoff, Recv: "Backoff", Name: "Duration", Role: NextDelay, Grows: true, Capped: true},
	{Path: JpilloraBackoff, Recv: "Backoff", Name: "ForAttempt", Role: NextDelay, Grows: true, Capped: true},
	{Path: JpilloraBackoff, Recv: "Backoff", Name: "Jitter", Role: JitterField, FixValue: "true"},

	// avast/retry-go v4: Do(fn, opts...), 10 attempts by default,
	// Attempts(0) retries until success.
	{Path: RetryGo, Name: "Do", Role: Retry, Lib: "retry.Do", OpArg: 0, BoundArg: 1, Variadic: true, Default: 10},
	{Path: RetryGo, Name: "DoWithData", Role: Retry, Lib: "retry.DoWithData", OpArg: 0, BoundArg: 1, Variadic: true, Default: 10},
	{Path: RetryGo, Name: "Attempts", Role: AttemptOption, ValueArg: 0, ZeroMeans: -1, Inner: -1},
	{Path: RetryGo, Name: "UntilSucceeded", Role: Unbounded},
	{Path: RetryGo, Name: "RetryIf", Role: PredicateOption, ValueArg: 0},
	{Path: RetryGo, Name: "DelayType", Role: Wrapper, Inner: 0},
	{Path: RetryGo, Name: "BackOffDelay", Role: DelayOption, Jitter: JitterNone, JitterFix: "CombineDelay+RandomDelay"},
	{Path: RetryGo, Name: "FixedDelay", Role: DelayOption, Jitter: JitterNone, JitterFix: "CombineDelay+RandomDelay"},
	{Path: RetryGo, Name: "RandomDelay", Role: DelayOption, Jitter: JitterHas},
	{Path: RetryGo, Name: "FullJitterBackoffDelay", Role: DelayOption, Jitter: JitterHas},
	{Path: RetryGo, Name: "CombineDelay", Role: DelayOption},

	// sethvargo/go-retry: Do(ctx, backoff, f); only errors marked
	// RetryableError are retried.
	{Path: SethRetry, Name: "Do", Role: Retry, Lib: "retry.Do", OpArg: 2, BoundArg: 1},
	{Path: SethRetry, Name: "DoValue", Role: Retry, Lib: "retry.DoValue", OpArg: 2, BoundArg: 1},
	{Path: SethRetry, Name: "Constant", Role: Retry, Lib: "retry.Constant", OpArg: 2, BoundArg: -2, Jitter: JitterNone},
	{Path: SethRetry, Name: "Exponential", Role: Retry, Lib: "retry.Exponential", OpArg: 2, BoundArg: -2, Jitter: JitterNone},
	{Path: SethRetry, Name: "Fibonacci", Role: Retry, Lib: "retry.Fibonacci", OpArg: 2, BoundArg: -2, Jitter: JitterNone},
	{Path: SethRetry, Name: "WithMaxRetries", Role: AttemptOption, ValueArg: 0, Plus: 1, Inner: 1},
	{Path: SethRetry, Name: "WithJitter", Role: Wrapper, Inner: 1, Jitter: JitterAdds},
	{Path: SethRetry, Name: "WithJitterPercent", Role: Wrapper, Inner: 1, Jitter: JitterAdds},
	{Path: SethRetry, Name: "WithFullJitter", Role: Wrapper, Inner: 0, Jitter: JitterAdds},
	{Path: SethRetry, Name: "WithCappedDuration", Role: Wrapper, Inner: 1},
	{Path: SethRetry, Name: "WithMaxDuration", Role: Wrapper, Inner: 1},
	{Path: SethRetry, Name: "NewConstant", Role: Constructor, Jitter: JitterNone, JitterFix: "WithFullJitter", Fixed: true},
	{Path: SethRetry, Name: "NewExponential", Role: Constructor, Jitter: JitterNone, JitterFix: "WithFullJitter"},
	{Path: SethRetry, Name: "NewFibonacci", Role: Constructor, Jitter: JitterNone, JitterFix: "WithFullJitter"},

	// hashicorp/go-retryablehttp: every send of *Client retries up to
	// RetryMax times (4 from NewClient; 0 in a zero Client).
	{Path: RetryableHTTP, Recv: "Client", Name: "Do", Role: RetrySend, Lib: "retryablehttp.Client.Do", BoundArg: -1, ReqArg: 0, Disable: "set RetryMax to 0 on the retryablehttp.Client"},
	{Path: RetryableHTTP, Recv: "Client", Name: "Get", Role: RetrySend, Lib: "retryablehttp.Client.Get", BoundArg: -1, Method: "GET", Disable: "set RetryMax to 0 on the retryablehttp.Client"},
	{Path: RetryableHTTP, Recv: "Client", Name: "Head", Role: RetrySend, Lib: "retryablehttp.Client.Head", BoundArg: -1, Method: "HEAD", Disable: "set RetryMax to 0 on the retryablehttp.Client"},
	{Path: RetryableHTTP, Recv: "Client", Name: "Post", Role: RetrySend, Lib: "retryablehttp.Client.Post", BoundArg: -1, Method: "POST", Disable: "set RetryMax to 0 on the retryablehttp.Client"},
	{Path: RetryableHTTP, Recv: "Client", Name: "PostForm", Role: RetrySend, Lib: "retryablehttp.Client.PostForm", BoundArg: -1, Method: "POST", Disable: "set RetryMax to 0 on the retryablehttp.Client"},
	{Path: RetryableHTTP, Name: "Get", Role: RetrySend, Lib: "retryablehttp.Get", BoundArg: -2, Method: "GET", Default: 5, Disable: "use a retryablehttp.Client with RetryMax 0"},
	{Path: RetryableHTTP, Name: "Head", Role: RetrySend, Lib: "retryablehttp.Head", BoundArg: -2, Method: "HEAD", Default: 5, Disable: "use a retryablehttp.Client with RetryMax 0"},
	{Path: RetryableHTTP, Name: "Post", Role: RetrySend, Lib: "retryablehttp.Post", BoundArg: -2, Method: "POST", Default: 5, Disable: "use a retryablehttp.Client with RetryMax 0"},
	{Path: RetryableHTTP, Name: "PostForm", Role: RetrySend, Lib: "retryablehttp.PostForm", BoundArg: -2, Method: "POST", Default: 5, Disable: "use a retryablehttp.Client with RetryMax 0"},
	{Path: RetryableHTTP, Recv: "Client", Name: "StandardClient", Role: RetryingClient, Lib: "retryablehttp.Client.StandardClient", BoundArg: -1, Disable: "set RetryMax to 0 on the retryablehttp.Client behind StandardClient"},
	{Path: RetryableHTTP, Name: "NewClient", Role: Constructor, Default: 5},
	{Path: RetryableHTTP, Recv: "Client", Name: "RetryMax", Role: AttemptField, Plus: 1, Default: 1},
	{Path: RetryableHTTP, Recv: "Client", Name: "CheckRetry", Role: PredicateField},
	{Path: RetryableHTTP, Recv: "Client", Name: "Backoff", Role: JitterField, FixValue: "LinearJitterBackoff"},
	{Path: RetryableHTTP, Name: "DefaultBackoff", Role: DelayOption, Jitter: JitterNone, JitterFix: "LinearJitterBackoff"},
	{Path: RetryableHTTP, Name: "LinearJitterBackoff", Role: DelayOption, Jitter: JitterHas},

	// net/http sends: retries only through a StandardClient.
	{Path: NetHTTP, Recv: "Client", Name: "Do", Role: Send, Lib: "http.Client.Do", BoundArg: -1, ReqArg: 0},
	{Path: NetHTTP, Name: "Get", Role: Send, Lib: "http.Get", BoundArg: -2, Method: "GET"},
	{Path: NetHTTP, Name: "Head", Role: Send, Lib: "http.Head", BoundArg: -2, Method: "HEAD"},
	{Path: NetHTTP, Name: "Post", Role: Send, Lib: "http.Post", BoundArg: -2, Method: "POST"},
	{Path: NetHTTP, Name: "PostForm", Role: Send, Lib: "http.PostForm", BoundArg: -2, Method: "POST"},
	{Path: NetHTTP, Name: "NewRequest", Role: RequestBuilder, ValueArg: 0},
	{Path: NetHTTP, Name: "NewRequestWithContext", Role: RequestBuilder, ValueArg: 1},
	{Path: RetryableHTTP, Name: "NewRequest", Role: RequestBuilder, ValueArg: 0},
	{Path: RetryableHTTP, Name: "NewRequestWithContext", Role: RequestBuilder, ValueArg: 1},
	{Path: ResilintIdempotency, Name: "Transport", Role: KeyTransport},
	{Path: NetHTTP, Recv: "Client", Name: "Get", Role: Send, Lib: "http.Client.Get", BoundArg: -1, Method: "GET"},
	{Path: NetHTTP, Recv: "Client", Name: "Head", Role: Send, Lib: "http.Client.Head", BoundArg: -1, Method: "HEAD"},
	{Path: NetHTTP, Recv: "Client", Name: "Post", Role: Send, Lib: "http.Client.Post", BoundArg: -1, Method: "POST"},
	{Path: NetHTTP, Recv: "Client", Name: "PostForm", Role: Send, Lib: "http.Client.PostForm", BoundArg: -1, Method: "POST"},

	// k8s.io/client-go/util/retry: attempts are the wait.Backoff's Steps.
	{Path: K8sRetry, Name: "RetryOnConflict", Role: Retry, Lib: "retry.RetryOnConflict", OpArg: 1, BoundArg: 0},
	{Path: K8sRetry, Name: "OnError", Role: Retry, Lib: "retry.OnError", OpArg: 2, BoundArg: 0},
	{Path: K8sRetry, Name: "DefaultRetry", Role: KnownVar, Default: 5},
	{Path: K8sRetry, Name: "DefaultBackoff", Role: KnownVar, Default: 4},
	{Path: K8sWait, Recv: "Backoff", Name: "Steps", Role: AttemptField, ZeroMeans: 1, Default: 1},
	{Path: K8sWait, Recv: "Backoff", Name: "Jitter", Role: JitterField, FixValue: "1.0"},
	{Path: K8sWait, Recv: "Backoff", Name: "Step", Role: NextDelay},

	// failsafe-go: With(policies...).Run/Get(fn); a retry policy makes
	// 3 attempts unless WithMaxRetries/WithMaxAttempts say otherwise.
	{Path: Failsafe, Name: "With", Role: Executor, BoundArg: 0},
	{Path: Failsafe, Recv: "Executor", Name: "Compose", Role: ExecutorWrapper, BoundArg: 0},
	{Path: Failsafe, Recv: "Executor", Name: "WithContext", Role: ExecutorWrapper, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "OnDone", Role: ExecutorWrapper, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "OnSuccess", Role: ExecutorWrapper, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "OnFailure", Role: ExecutorWrapper, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "Run", Role: Retry, Lib: "failsafe Executor.Run", OpArg: 0, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "RunWithExecution", Role: Retry, Lib: "failsafe Executor.RunWithExecution", OpArg: 0, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "Get", Role: Retry, Lib: "failsafe Executor.Get", OpArg: 0, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "GetWithExecution", Role: Retry, Lib: "failsafe Executor.GetWithExecution", OpArg: 0, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "RunAsync", Role: Retry, Lib: "failsafe Executor.RunAsync", OpArg: 0, BoundArg: -1},
	{Path: Failsafe, Recv: "Executor", Name: "GetAsync", Role: Retry, Lib: "failsafe Executor.GetAsync", OpArg: 0, BoundArg: -1},
	{Path: FailsafeRP, Name: "RetryPolicy", Role: RetryPolicyType},
	{Path: FailsafeRP, Name: "NewWithDefaults", Role: Constructor, Default: 3},
	{Path: FailsafeRP, Name: "NewBuilder", Role: Constructor, Default: 3},
	{Path: FailsafeRP, Recv: "Builder", Name: "Build", Role: Wrapper, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "WithMaxRetries", Role: AttemptOption, ValueArg: 0, Plus: 1, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "WithMaxAttempts", Role: AttemptOption, ValueArg: 0, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "WithBackoff", Role: Wrapper, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "WithDelay", Role: Wrapper, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "WithJitter", Role: Wrapper, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "HandleErrors", Role: Wrapper, Inner: -1, InnerRecv: true, Errors: ErrorsRetried},
	{Path: FailsafeRP, Recv: "Builder", Name: "HandleIf", Role: Wrapper, Inner: -1, InnerRecv: true, Errors: ErrorsRetried},
	{Path: FailsafeRP, Recv: "Builder", Name: "AbortOnErrors", Role: ErrorOption, Errors: ErrorsStop},
	{Path: FailsafeRP, Recv: "Builder", Name: "AbortOnErrorTypes", Role: ErrorOption, Errors: ErrorsStop},
	{Path: FailsafeRP, Recv: "Builder", Name: "AbortOnResult", Role: ErrorOption, Errors: ErrorsStop},
	{Path: FailsafeRP, Recv: "Builder", Name: "AbortIf", Role: ErrorOption, Errors: ErrorsStop},
	{Path: FailsafeRP, Recv: "Builder", Name: "WithMaxDuration", Role: Wrapper, Inner: -1, InnerRecv: true},
	{Path: FailsafeRP, Recv: "Builder", Name: "OnRetry", Role: Wrapper, Inner: -1, InnerRecv: true},

	// go-grpc-middleware's retry interceptors (v1 and v2): every call
	// through the connection is retried WithMax more times (0 by
	// default: no retry unless an option says so), waiting the
	// WithBackoff function between attempts (a jittered linear one by
	// default).
	// grpc-go reconnects a connection with the backoff of the
	// ConnectParams it is dialed with; left out, the library's
	// DefaultConfig, which has a jitter of 0.2. A Config literal that
	// leaves Jitter out reconnects every client in lockstep.
	{Path: GRPC, Name: "WithConnectParams", Role: Reconnect, Lib: "grpc.WithConnectParams", ValueArg: 0, Field: "Backoff"},
	{Path: GRPCBackoff, Recv: "Config", Name: "Jitter", Role: JitterField, FixValue: "0.2"},
	{Path: GRPCRetry, Name: "UnaryClientInterceptor", Role: RetryInterceptor, Lib: "grpc_retry.UnaryClientInterceptor", BoundArg: 0, Variadic: true, Default: 1},
	{Path: GRPCRetry, Name: "StreamClientInterceptor", Role: RetryInterceptor, Lib: "grpc_retry.StreamClientInterceptor", BoundArg: 0, Variadic: true, Default: 1},
	{Path: GRPCRetry, Name: "WithMax", Role: AttemptOption, ValueArg: 0, Plus: 1, Inner: -1},
	{Path: GRPCRetry, Name: "WithBackoff", Role: Wrapper, Inner: 0},
	{Path: GRPCRetry, Name: "WithBackoffContext", Role: Wrapper, Inner: 0},
	{Path: GRPCRetry, Name: "BackoffLinear", Role: DelayOption, Jitter: JitterNone, JitterFix: "BackoffLinearWithJitter", FixValue: "0.5", Fixed: true},
	{Path: GRPCRetry, Name: "BackoffExponential", Role: DelayOption, Jitter: JitterNone, JitterFix: "BackoffExponentialWithJitter", FixValue: "0.5"},
	{Path: GRPCRetry, Name: "BackoffLinearWithJitter", Role: DelayOption, Jitter: JitterHas},
	{Path: GRPCRetry, Name: "BackoffExponentialWithJitter", Role: DelayOption, Jitter: JitterHas},
	{Path: GRPCRetryV2, Name: "UnaryClientInterceptor", Role: RetryInterceptor, Lib: "retry.UnaryClientInterceptor", BoundArg: 0, Variadic: true, Default: 1},
	{Path: GRPCRetryV2, Name: "StreamClientInterceptor", Role: RetryInterceptor, Lib: "retry.StreamClientInterceptor", BoundArg: 0, Variadic: true, Default: 1},
	{Path: GRPCRetryV2, Name: "WithMax", Role: AttemptOption, ValueArg: 0, Plus: 1, Inner: -1},
	{Path: GRPCRetryV2, Name: "WithBackoff", Role: Wrapper, Inner: 0},
	{Path: GRPCRetryV2, Name: "BackoffLinear", Role: DelayOption, Jitter: JitterNone, JitterFix: "BackoffLinearWithJitter", FixValue: "0.5", Fixed: true},
	{Path: GRPCRetryV2, Name: "BackoffExponential", Role: DelayOption, Jitter: JitterNone, JitterFix: "BackoffExponentialWithJitter", FixValue: "0.5"},
	{Path: GRPCRetryV2, Name: "BackoffLinearWithJitter", Role: DelayOption, Jitter: JitterHas},
	{Path: GRPCRetryV2, Name: "BackoffExponentialWithJitter", Role: DelayOption, Jitter: JitterHas},
	{Path: GRPCRetryV2, Name: "BackoffExponentialWithJitterBounded", Role: DelayOption, Jitter: JitterHas},

	// resilint's runtime/retry: Do(ctx, policy, op), DoValue(ctx, policy, op).
	{Path: ResilintRetry, Name: "Do", Role: Retry, Lib: "retry.Do", OpArg: 2, BoundArg: 1, Default: DefaultResilintAttempts},
	{Path: ResilintRetry, Name: "DoValue", Role: Retry, Lib: "retry.DoValue", OpArg: 2, BoundArg: 1, Default: DefaultResilintAttempts},
	{Path: ResilintRetry, Recv: "Policy", Name: "MaxAttempts", Role: AttemptField, ZeroMeans: DefaultResilintAttempts, Default: DefaultResilintAttempts},
	// resilint's runtime/callpath: the retry inside a composed call path;
	// without Config.Retry it does not retry.
	{Path: ResilintCallpath, Name: "Execute", Role: Retry, Lib: "callpath.Execute", OpArg: 2, BoundArg: 1, Default: 1},
	{Path: ResilintCallpath, Name: "ExecuteWithFallback", Role: Retry, Lib: "callpath.ExecuteWithFallback", OpArg: 2, BoundArg: 1, Default: 1},
	{Path: ResilintCallpath, Recv: "Path", Name: "Do", Role: Retry, Lib: "callpath.Path.Do", OpArg: 1, BoundArg: -1, Default: 1},
	{Path: ResilintCallpath, Recv: "Path", Name: "DoWithFallback", Role: Retry, Lib: "callpath.Path.DoWithFallback", OpArg: 1, BoundArg: -1, Default: 1},
	{Path: ResilintCallpath, Name: "New", Role: Wrapper, Inner: 0},
	{Path: ResilintCallpath, Recv: "Config", Name: "Retry", Role: PolicyField},
	{Path: ResilintRetry, Name: "JitterNone", Role: DelayOption, Jitter: JitterNone, JitterFix: "JitterFull"},
	{Path: ResilintRetry, Name: "JitterEqual", Role: DelayOption, Jitter: JitterHas},
}

// cenkaltiClassic is the rows of an earlier major of cenkalti/backoff
// (v1 to v3) at path: Retry(op, b BackOff) and BackOff values as in v4,
// its attempts bounded by tries (WithMaxTries in v1, WithMaxRetries
// after it), whose 0 means no bound rather than v4's no retry.
func cenkaltiClassic(path, tries string) []Row {
	return []Row{
		{Path: path, Name: "Retry", Role: Retry, Lib: "backoff.Retry", OpArg: 0, BoundArg: 1},
		{Path: path, Name: "RetryNotify", Role: Retry, Lib: "backoff.RetryNotify", OpArg: 0, BoundArg: 1},
		{Path: path, Name: tries, Role: AttemptOption, ValueArg: 1, Plus: 1, ZeroMeans: -1, Inner: -1},
		{Path: path, Name: "WithContext", Role: Wrapper, Inner: 0},
		{Path: path, Name: "NewExponentialBackOff", Role: Constructor},
		{Path: path, Recv: "ExponentialBackOff", Name: "RandomizationFactor", Role: JitterField, FixValue: "0.5"},
		{Path: path, Recv: "ExponentialBackOff", Name: "MaxElapsedTime", Role: ElapsedField},
		{Path: path, Name: "ZeroBackOff", Role: DelayOption, Jitter: JitterZero},
		{Path: path, Name: "NewConstantBackOff", Role: Constructor, Jitter: JitterNone, Fixed: true},
		{Path: path, Recv: "ExponentialBackOff", Name: "NextBackOff", Role: NextDelay, Grows: true, Capped: true},
		{Path: path, Recv: "ConstantBackOff", Name: "NextBackOff", Role: NextDelay, Jitter: JitterNone},
		{Path: path, Name: "Permanent", Role: Permanent},
	}
}

// AttemptOptionOf returns the AttemptOption row of path (the option
// that bounds its retries' attempts), or nil.
func AttemptOptionOf(path string) *Row {
	for i := range Rows {
		if r := &Rows[i]; r.Role == AttemptOption && r.Path == path {
			return r
		}
	}
	return nil
}

// ClassicCenkalti reports whether path is cenkalti/backoff v4 or an
// earlier major: Retry(op, b), its bounds in the BackOff value.
func ClassicCenkalti(path string) bool {
	switch path {
	case CenkaltiV4, CenkaltiV3, CenkaltiV2, CenkaltiGopkg2, CenkaltiGopkg1:
		return true
	}
	return false
}

// Breakers: circuit breaker calls, policies, open errors, and the ways
// retries are told to stop.
var breakerRows = []Row{
	{Path: GoBreaker, Recv: "CircuitBreaker", Name: "Execute", Role: Breaker, Lib: "gobreaker CircuitBreaker.Execute", OpArg: 0},
	{Path: GoBreaker, Recv: "TwoStepCircuitBreaker", Name: "Allow", Role: Breaker, Lib: "gobreaker TwoStepCircuitBreaker.Allow", OpArg: -1},
	{Path: GoBreaker, Name: "ErrOpenState", Role: OpenError},
	{Path: GoBreaker, Name: "ErrTooManyRequests", Role: OpenError},
	{Path: GoBreakerV2, Recv: "CircuitBreaker", Name: "Execute", Role: Breaker, Lib: "gobreaker CircuitBreaker.Execute", OpArg: 0},
	{Path: GoBreakerV2, Recv: "TwoStepCircuitBreaker", Name: "Allow", Role: Breaker, Lib: "gobreaker TwoStepCircuitBreaker.Allow", OpArg: -1},
	{Path: GoBreakerV2, Name: "ErrOpenState", Role: OpenError},
	{Path: GoBreakerV2, Name: "ErrTooManyRequests", Role: OpenError},
	{Path: Hystrix, Name: "Do", Role: Breaker, Lib: "hystrix.Do", OpArg: 1},
	{Path: Hystrix, Name: "DoC", Role: Breaker, Lib: "hystrix.DoC", OpArg: 2},
	{Path: Hystrix, Name: "Go", Role: Breaker, Lib: "hystrix.Go", OpArg: 1},
	{Path: Hystrix, Name: "GoC", Role: Breaker, Lib: "hystrix.GoC", OpArg: 2},
	{Path: Hystrix, Name: "ErrCircuitOpen", Role: OpenError},
	{Path: Hystrix, Name: "ErrMaxConcurrency", Role: OpenError},
	{Path: Resiliency, Recv: "Breaker", Name: "Run", Role: Breaker, Lib: "breaker.Breaker.Run", OpArg: 0},
	{Path: Resiliency, Recv: "Breaker", Name: "Go", Role: Breaker, Lib: "breaker.Breaker.Go", OpArg: 0},
	{Path: Resiliency, Name: "ErrBreakerOpen", Role: OpenError},
	{Path: FailsafeCB, Name: "CircuitBreaker", Role: BreakerPolicyType},
	{Path: FailsafeCB, Name: "ErrOpen", Role: OpenError},
	{Path: ResilintBreaker, Recv: "Breaker", Name: "Do", Role: Breaker, Lib: "breaker.Breaker.Do", OpArg: 1},
	{Path: ResilintBreaker, Name: "Execute", Role: Breaker, Lib: "breaker.Execute", OpArg: 2},
	{Path: ResilintBreaker, Recv: "Breaker", Name: "Allow", Role: Breaker, Lib: "breaker.Breaker.Allow", OpArg: -1},
	{Path: ResilintBreaker, Name: "ErrOpen", Role: OpenError},
	{Path: ResilintBreaker, Name: "ErrTooManyTrials", Role: OpenError},
	{Path: ResilintRetry, Name: "IsCircuitOpen", Role: OpenCheck},
	{Path: ResilintBreaker, Recv: "rejection", Name: "CircuitOpen", Role: OpenMethod},
	{Path: GoBreaker, Name: "StateOpen", Role: OpenState},
	{Path: GoBreakerV2, Name: "StateOpen", Role: OpenState},
	{Path: ResilintBreaker, Name: "StateOpen", Role: OpenState},
	{Path: ResilintRetry, Name: "Permanent", Role: Permanent},
	{Path: CenkaltiV4, Name: "Permanent", Role: Permanent},
	{Path: CenkaltiV5, Name: "Permanent", Role: Permanent},
	{Path: RetryGo, Name: "Unrecoverable", Role: Permanent},
}

// sentinelRows are the errors that end a stream or an iteration.
var sentinelRows = []Row{
	{Path: IO, Name: "EOF", Role: EndSentinel},
	{Path: APIIterator, Name: "Done", Role: EndSentinel},
	// Optimistic-concurrency conflicts: the write lost a race.
	{Path: K8sAPIErrors, Name: "IsConflict", Role: Conflict},
	{Path: GoRedisV9, Name: "TxFailedErr", Role: Conflict},
	// The os package's older predicates of errors.Is(err, fs.ErrX).
	{Path: "os", Name: "IsExist", Role: SpecificCheck},
	{Path: "os", Name: "IsNotExist", Role: SpecificCheck},
	{Path: "os", Name: "IsPermission", Role: SpecificCheck},
	// Errors an outage gives every client.
	{Path: IO, Name: "ErrUnexpectedEOF", Role: Outage},
	{Path: IO, Name: "ErrClosedPipe", Role: Outage},
	{Path: "net", Name: "ErrClosed", Role: Outage},
	{Path: "os", Name: "ErrDeadlineExceeded", Role: Outage},
	{Path: "context", Name: "DeadlineExceeded", Role: Outage},
	{Path: "database/sql/driver", Name: "ErrBadConn", Role: Outage},
	{Path: "database/sql", Name: "ErrConnDone", Role: Outage},
	{Path: NATS, Name: "ErrNoResponders", Role: Outage},
	{Path: NATS, Name: "ErrTimeout", Role: Outage},
	{Path: NATS, Name: "ErrNoServers", Role: Outage},
	{Path: NATS, Name: "ErrConnectionClosed", Role: Outage},
}

// protocolRows are methods of protocols Go types satisfy implicitly, by
// name: each row is resolved against one standard type that has it.
var protocolRows = []Row{
	{Path: IO, Recv: "Closer", Name: "Close", Role: NotOperation},
	{Path: "context", Recv: "Context", Name: "Err", Role: NotOperation},
	{Path: "io/fs", Recv: "PathError", Name: "Unwrap", Role: NotOperation},
	{Path: "os/exec", Recv: "Cmd", Name: "Wait", Role: NotOperation},
	{Path: "syscall", Recv: "Errno", Name: "Is", Role: MatchMethod},
}

// hostLocalRows are the standard library's calls, outside the packages of
// HostLocalPackages, that stay on this host: binding listeners (HostBind),
// dialing Unix sockets (HostLocalDial), and helpers (HostLocal).
var hostLocalRows = []Row{
	{Path: "net", Name: "Listen", Role: HostBind},
	{Path: "net", Name: "ListenTCP", Role: HostBind},
	{Path: "net", Name: "ListenUDP", Role: HostBind},
	{Path: "net", Name: "ListenUnix", Role: HostBind},
	{Path: "net", Name: "ListenUnixgram", Role: HostBind},
	{Path: "net", Name: "ListenPacket", Role: HostBind},
	{Path: "net", Name: "FileListener", ValueArg: -1, Role: HostBind},
	{Path: "net", Name: "FilePacketConn", ValueArg: -1, Role: HostBind},
	{Path: "net", Name: "ParseIP", Role: HostLocal},
	{Path: "net", Name: "JoinHostPort", Role: HostLocal},
	{Path: "net", Recv: "ListenConfig", Name: "Listen", ValueArg: 1, Role: HostBind},
	{Path: "net", Recv: "ListenConfig", Name: "ListenPacket", ValueArg: 1, Role: HostBind},
	{Path: "net", Recv: "Listener", Name: "Addr", Role: HostLocal},
	{Path: "net", Recv: "Listener", Name: "Close", Role: HostLocal},
	{Path: "net", Recv: "TCPListener", Name: "Addr", Role: HostLocal},
	{Path: "net", Recv: "TCPListener", Name: "Close", Role: HostLocal},
	{Path: "net", Recv: "TCPListener", Name: "File", Role: HostLocal},
	{Path: "net", Recv: "TCPListener", Name: "SetDeadline", Role: HostLocal},
	{Path: "net", Recv: "UnixListener", Name: "Addr", Role: HostLocal},
	{Path: "net", Recv: "UnixListener", Name: "Close", Role: HostLocal},
	{Path: "net", Recv: "UnixListener", Name: "SetUnlinkOnClose", Role: HostLocal},
	// Socket options and the local address of any connection (the
	// unexported type whose methods every *net.TCPConn, UDPConn and
	// UnixConn promotes); not Read or Write.
	{Path: "net", Recv: "conn", Name: "SetReadBuffer", Role: HostLocal},
	{Path: "net", Recv: "conn", Name: "SetWriteBuffer", Role: HostLocal},
	{Path: "net", Recv: "conn", Name: "LocalAddr", Role: HostLocal},
	{Path: "net", Recv: "conn", Name: "Close", Role: HostLocal},
	{Path: "net", Recv: "Conn", Name: "Close", Role: HostLocal}, // closing asks nothing of the peer
	// The same questions of a connection held in an interface, whatever
	// its implementation: its own address, its deadlines, its closing.
	{Path: "net", Recv: "Conn", Name: "LocalAddr", Role: HostLocal},
	{Path: "net", Recv: "Conn", Name: "SetDeadline", Role: HostLocal},
	{Path: "net", Recv: "Conn", Name: "SetReadDeadline", Role: HostLocal},
	{Path: "net", Recv: "Conn", Name: "SetWriteDeadline", Role: HostLocal},
	{Path: "net", Recv: "PacketConn", Name: "LocalAddr", Role: HostLocal},
	{Path: "net", Recv: "PacketConn", Name: "Close", Role: HostLocal},
	{Path: "net", Recv: "PacketConn", Name: "SetDeadline", Role: HostLocal},
	{Path: "net", Recv: "PacketConn", Name: "SetReadDeadline", Role: HostLocal},
	{Path: "net", Recv: "PacketConn", Name: "SetWriteDeadline", Role: HostLocal},
	{Path: "net", Recv: "IP", Name: "String", Role: HostLocal},
	{Path: "net", Recv: "IP", Name: "To4", Role: HostLocal},
	{Path: "net", Recv: "IP", Name: "Equal", Role: HostLocal},
	{Path: "net", Recv: "TCPAddr", Name: "String", Role: HostLocal},
	{Path: "net", Recv: "UDPAddr", Name: "String", Role: HostLocal},
	{Path: "net", Name: "Dial", ValueArg: 0, Role: HostLocalDial},
	{Path: "net", Name: "DialTimeout", ValueArg: 0, Role: HostLocalDial},
	{Path: "net", Name: "DialUnix", ValueArg: -1, Role: HostLocalDial},
	{Path: "net", Name: "ResolveUnixAddr", Role: HostLocal},
	{Path: "net", Recv: "UnixAddr", Name: "Network", Role: HostLocal},
	// Every net.Addr names an address and reaches nothing, whatever
	// its type (a listener's Addr().Network()).
	{Path: "net", Recv: "Addr", Name: "Network", Role: HostLocal},
	{Path: "net", Recv: "Addr", Name: "String", Role: HostLocal},
	{Path: "net", Recv: "UnixAddr", Name: "String", Role: HostLocal},
	{Path: "net", Recv: "Dialer", Name: "Dial", ValueArg: 0, Role: HostLocalDial},
	{Path: "net", Recv: "Dialer", Name: "DialContext", ValueArg: 1, Role: HostLocalDial},

	// Functions that keep a closure to run later.
	{Path: "time", Name: "AfterFunc", ValueArg: 1, Role: Deferred},

	// Injected clocks: their waits are time's.
	{Path: "k8s.io/utils/clock", Recv: "Clock", Name: "After", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "Clock", Name: "Sleep", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "Clock", Name: "NewTimer", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "Clock", Name: "Tick", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "WithTicker", Name: "NewTicker", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "RealClock", Name: "After", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "RealClock", Name: "Sleep", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "RealClock", Name: "NewTimer", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "RealClock", Name: "Tick", Role: ClockMethod},
	{Path: "k8s.io/utils/clock", Recv: "RealClock", Name: "NewTicker", Role: ClockMethod},
	{Path: "github.com/jonboulle/clockwork", Recv: "Clock", Name: "After", Role: ClockMethod},
	{Path: "github.com/jonboulle/clockwork", Recv: "Clock", Name: "Sleep", Role: ClockMethod},
	{Path: "github.com/jonboulle/clockwork", Recv: "Clock", Name: "NewTimer", Role: ClockMethod},
	{Path: "github.com/jonboulle/clockwork", Recv: "Clock", Name: "NewTicker", Role: ClockMethod},
	{Path: "github.com/benbjohnson/clock", Recv: "Clock", Name: "After", Role: ClockMethod},
	{Path: "github.com/benbjohnson/clock", Recv: "Clock", Name: "Sleep", Role: ClockMethod},
	{Path: "github.com/benbjohnson/clock", Recv: "Clock", Name: "Tick", Role: ClockMethod},
	{Path: "code.cloudfoundry.org/clock", Recv: "Clock", Name: "After", Role: ClockMethod},
	{Path: "code.cloudfoundry.org/clock", Recv: "Clock", Name: "Sleep", Role: ClockMethod},
	{Path: "code.cloudfoundry.org/clock", Recv: "Clock", Name: "NewTimer", Role: ClockMethod},
	{Path: "code.cloudfoundry.org/clock", Recv: "Clock", Name: "NewTicker", Role: ClockMethod},
	{Path: "context", Name: "AfterFunc", ValueArg: 1, Role: Deferred},
	{Path: "runtime", Name: "SetFinalizer", ValueArg: 1, Role: Deferred},
	{Path: "runtime", Name: "AddCleanup", ValueArg: 1, Role: Deferred},
	{Path: "net/http", Recv: "Server", Name: "RegisterOnShutdown", ValueArg: 0, Role: Deferred},
	{Path: "net/http", Name: "HandleFunc", ValueArg: 1, Role: Deferred},
	{Path: "net/http", Recv: "ServeMux", Name: "HandleFunc", ValueArg: 1, Role: Deferred},
	{Path: "sync/atomic", Recv: "Value", Name: "Store", ValueArg: 0, Role: Deferred},
}

// HostLocalPackages are the packages none of whose functions reach
// another host: string and number handling, checksums and hashes of
// bytes in memory, address values (net/netip), errors, formatting,
// logging, synchronization, time, files and system calls (the standard library's
// syscall and its extension golang.org/x/sys, whose wrappers end in
// assembly the model cannot read). Not io or bufio: their readers and
// writers may be network connections. As for syscall, the few raw socket
// calls of x/sys (Connect, Sendto) are taken for local too.
var HostLocalPackages = map[string]bool{
	"bytes": true, "context": true, "crypto/rand": true, "errors": true, "fmt": true, "log": true, "log/slog": true,
	"hash/crc32": true, "hash/crc64": true, "hash/fnv": true, "hash/maphash": true, "net/netip": true,
	"maps": true, "math": true, "math/bits": true, "math/rand": true, "math/rand/v2": true, "os": true,
	"path": true, "path/filepath": true, "runtime": true, "slices": true, "sort": true,
	"strconv": true, "strings": true, "sync": true, "sync/atomic": true, "syscall": true,
	"time": true, "unicode": true, "unicode/utf8": true,
	"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true,
}

// CancelCodes are the RPC status-code types, by package path and type
// name, and the values of each that a call cancelled through its context
// may fail with: Canceled, DeadlineExceeded, and Unknown (the code of an
// error that carries no status, such as the context's own). Any other
// value of these types (Unavailable, ResourceExhausted) is a failure no
// cancellation gives.
var CancelCodes = map[[2]string][]int64{
	{"google.golang.org/grpc/codes", "Code"}: {1, 2, 4},
	{"connectrpc.com/connect", "Code"}:       {1, 2, 4},
}

// StreamPackages are the packages whose readers, writers and scanners
// wrap another reader or writer: a call of theirs stays on this host when
// every stream it is given, or is called on, is this host's (a file, a
// buffer), and may reach anywhere otherwise (a network connection).
var StreamPackages = map[string]bool{"bufio": true, "io": true, "encoding/json": true, "encoding/xml": true, "encoding/csv": true, "encoding/gob": true}

// probeRows are the standard library's calls that only ask whether a
// dependency answers.
// unwrapRows return the error an error wraps.
var unwrapRows = []Row{
	{Path: "errors", Name: "Unwrap", Role: Unwrapper},
	{Path: "github.com/pkg/errors", Name: "Cause", Role: Unwrapper},
	{Path: "github.com/pingcap/errors", Name: "Cause", Role: Unwrapper},
}

// errorMakerRows make an error value from their arguments.
var errorMakerRows = []Row{
	{Path: "errors", Name: "New", Role: ErrorMaker},
	{Path: "errors", Name: "Join", Role: ErrorMaker},
	{Path: "fmt", Name: "Errorf", Role: ErrorMaker},
}

// terminalRows are the process's standard input and the functions that
// read it or the terminal.
var terminalRows = []Row{
	{Path: "os", Name: "Stdin", Role: Terminal},
	{Path: "fmt", Name: "Scan", Role: Terminal},
	{Path: "fmt", Name: "Scanf", Role: Terminal},
	{Path: "fmt", Name: "Scanln", Role: Terminal},
	{Path: "golang.org/x/term", Name: "ReadPassword", Role: Terminal},
}

// pureRows are the standard library's parsers and compilers of values
// given as arguments.
var pureRows = []Row{
	{Path: "strconv", Name: "Atoi", Role: Pure},
	{Path: "strconv", Name: "ParseBool", Role: Pure},
	{Path: "strconv", Name: "ParseComplex", Role: Pure},
	{Path: "strconv", Name: "ParseFloat", Role: Pure},
	{Path: "strconv", Name: "ParseInt", Role: Pure},
	{Path: "strconv", Name: "ParseUint", Role: Pure},
	{Path: "strconv", Name: "QuotedPrefix", Role: Pure},
	{Path: "strconv", Name: "Unquote", Role: Pure},
	{Path: "strconv", Name: "UnquoteChar", Role: Pure},
	{Path: "time", Name: "Parse", Role: Pure},
	{Path: "time", Name: "ParseDuration", Role: Pure},
	{Path: "time", Name: "ParseInLocation", Role: Pure},
	{Path: "net", Name: "ParseCIDR", Role: Pure},
	{Path: "net", Name: "ParseMAC", Role: Pure},
	{Path: "net", Name: "SplitHostPort", Role: Pure},
	{Path: "net/netip", Name: "ParseAddr", Role: Pure},
	{Path: "net/netip", Name: "ParseAddrPort", Role: Pure},
	{Path: "net/netip", Name: "ParsePrefix", Role: Pure},
	{Path: "net/url", Name: "Parse", Role: Pure},
	{Path: "net/url", Name: "ParseQuery", Role: Pure},
	{Path: "net/url", Name: "ParseRequestURI", Role: Pure},
	{Path: "net/url", Name: "PathUnescape", Role: Pure},
	{Path: "net/url", Name: "QueryUnescape", Role: Pure},
	{Path: "net/url", Recv: "URL", Name: "Parse", Role: Pure},
	{Path: "regexp", Name: "Compile", Role: Pure},
	{Path: "regexp", Name: "CompilePOSIX", Role: Pure},
	{Path: "mime", Name: "ParseMediaType", Role: Pure},
	{Path: "encoding/hex", Name: "Decode", Role: Pure},
	{Path: "encoding/hex", Name: "DecodeString", Role: Pure},
	{Path: "encoding/base64", Recv: "Encoding", Name: "Decode", Role: Pure},
	{Path: "encoding/base64", Recv: "Encoding", Name: "DecodeString", Role: Pure},
	{Path: "path", Name: "Match", Role: Pure},
	{Path: "path/filepath", Name: "Match", Role: Pure},
	{Path: "path/filepath", Name: "Rel", Role: Pure},
}

var probeRows = []Row{
	{Path: "database/sql", Recv: "DB", Name: "Ping", Role: Probe},
	{Path: "database/sql", Recv: "DB", Name: "PingContext", Role: Probe},
	{Path: "database/sql", Recv: "Conn", Name: "PingContext", Role: Probe},
}

// HostStatePackages are the HostLocalPackages whose calls reach this
// host's own state — its files, file locks, processes, system calls and
// random source — and nothing another client shares: an attempt that makes one reaches
// this host (as a bind does), so retrying it synchronizes no one. (A file
// on a network mount is the exception the model cannot see.)
var HostStatePackages = map[string]bool{
	"crypto/rand": true, "os": true, "syscall": true,
	"golang.org/x/sys/unix": true, "golang.org/x/sys/windows": true,
	// Netlink sockets (AF_NETLINK) reach only this host's kernel: its
	// links, addresses, routes and namespaces.
	"github.com/vishvananda/netlink": true, "github.com/vishvananda/netlink/nl": true, "github.com/vishvananda/netns": true,
	// File watches (inotify, kqueue, ReadDirectoryChangesW) are this
	// host's kernel's.
	"github.com/fsnotify/fsnotify": true,
}

// hostStateFuncs are the functions, outside HostStatePackages, that
// reach only this host's own state: io/ioutil's file functions, which
// are os's (its ReadAll and NopCloser are io's streams, not files), and
// net's lists of this host's interfaces.
var hostStateFuncs = map[string]map[string]bool{
	"io/ioutil": {"ReadFile": true, "WriteFile": true, "ReadDir": true, "TempFile": true, "TempDir": true},
	// This host's network interfaces, as its kernel lists them.
	"net": {"InterfaceByName": true, "InterfaceByIndex": true, "Interfaces": true, "InterfaceAddrs": true},
}

// HostState reports whether the function name of the package path (no
// method) reaches only this host's own state: a function of
// HostStatePackages, or one of hostStateFuncs.
func HostState(path, recv, name string) bool {
	return HostStatePackages[path] || recv == "" && hostStateFuncs[path][name]
}

func init() {
	Rows = append(append(append(append(append(append(Rows, breakerRows...), sentinelRows...), errnoRows...), protocolRows...), hostLocalRows...), probeRows...)
	Rows = append(append(append(Rows, pureRows...), unwrapRows...), errorMakerRows...)
	Rows = append(Rows, terminalRows...)
	Rows = append(append(append(append(Rows, cenkaltiClassic(CenkaltiV3, "WithMaxRetries")...),
		cenkaltiClassic(CenkaltiV2, "WithMaxRetries")...),
		cenkaltiClassic(CenkaltiGopkg2, "WithMaxRetries")...),
		cenkaltiClassic(CenkaltiGopkg1, "WithMaxTries")...)
}

// TestEnds are the methods of package testing's T, B and TB that end the
// test (they never return to the caller): what makes a call or an
// interface a test's.
var TestEnds = map[string]bool{"Fatal": true, "Fatalf": true, "FailNow": true, "Skip": true, "Skipf": true, "SkipNow": true}

// Paths returns the distinct import paths of the catalog, for cheap
// "does this package import any of them" checks.
func Paths() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range Rows {
		if !seen[r.Path] {
			seen[r.Path] = true
			out = append(out, r.Path)
		}
	}
	return out
}

type key struct{ path, recv, name string }

var index map[key]*Row

func init() {
	index = make(map[key]*Row, len(Rows))
	for i := range Rows {
		r := &Rows[i]
		index[key{r.Path, r.Recv, r.Name}] = r
	}
}

// Lookup returns the row for path.recv.name, or nil.
func Lookup(path, recv, name string) *Row {
	return index[key{path, recv, name}]
}

var names map[Role]map[string]bool

func init() {
	names = map[Role]map[string]bool{}
	for _, r := range Rows {
		if r.Role == OpenMethod || r.Role == NotOperation || r.Role == MatchMethod {
			if names[r.Role] == nil {
				names[r.Role] = map[string]bool{}
			}
			names[r.Role][r.Name] = true
		}
	}
}

// ProtocolMethod reports whether name is the name of a method of an
// OpenMethod, NotOperation or MatchMethod row (role): those rows are matched by name,
// since any type may satisfy their protocol.
func ProtocolMethod(role Role, name string) bool {
	return names[role][name]
}
