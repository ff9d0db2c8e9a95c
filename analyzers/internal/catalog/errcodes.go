package catalog

import (
	"strconv"
	"strings"
)

// outageCodes are the string error codes, as cloud and RPC APIs return
// them in their error bodies (read through a method or a field of the
// error: `ae.ErrorCode()`, `apiErr.Code`), that name a failure many
// clients meet together while a dependency is down or overloaded, or one
// an attempt cancelled through its context fails with: throttling,
// unavailability, internal errors, timeouts and cancellations. Any other
// code compared with a constant names one failure of the request's own
// (a name already taken, a missing resource), as an error value does.
// Kept lower-case: codes are matched without regard to case.
var outageCodes = map[string]bool{}

func init() {
	for _, c := range []string{
		// throttling and quotas
		"Throttling", "ThrottlingException", "ThrottledException", "RequestThrottled",
		"RequestThrottledException", "EC2ThrottledException", "TooManyRequests",
		"TooManyRequestsException", "ProvisionedThroughputExceededException",
		"RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException",
		"LimitExceeded", "RateLimitExceeded", "RateLimited", "Throttled",
		"SlowDown", "rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded",
		"ResourceExhausted", "RESOURCE_EXHAUSTED", "ServerBusy", "Busy",
		"PriorRequestNotComplete", "TransactionInProgressException",
		// unavailability and internal failures
		"ServiceUnavailable", "ServiceUnavailableException", "Unavailable",
		"InternalError", "InternalFailure", "InternalServerError",
		"InternalServerErrorException", "Internal", "ServiceException",
		"backendError", "EC2UnavailableException", "IDPCommunicationError",
		"Unknown", "UnknownError",
		// timeouts and cancellations
		"RequestTimeout", "RequestTimeoutException", "Timeout", "OperationTimedOut",
		"GatewayTimeout", "DeadlineExceeded", "DEADLINE_EXCEEDED",
		"RequestCanceled", "Canceled", "Cancelled",
	} {
		outageCodes[strings.ToLower(c)] = true
	}
}

// OutageCode reports whether code, a string error code compared with a
// constant, may name a failure of an outage (outageCodes), or is an HTTP
// status written as a string that is one (408, 425, 429, 5xx).
func OutageCode(code string) bool {
	if outageCodes[strings.ToLower(code)] {
		return true
	}
	if n, err := strconv.Atoi(code); err == nil {
		return n == 408 || n == 425 || n == 429 || n >= 500 && n <= 599
	}
	return false
}
