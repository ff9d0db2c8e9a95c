package identified

import (
	"context"
	"errors"
)

type rpcStatus struct{ code int }

func (st *rpcStatus) Code() int {
	if st == nil {
		return 0
	}
	return st.code
}

const codeNoLeader = 7

// statusOf returns the status an error carries, and whether it has one.
func statusOf(err error) (*rpcStatus, bool) {
	var st *rpcStatus
	if errors.As(err, &st) {
		return st, true
	}
	return nil, false
}

// statusFor returns the status last recorded for a bucket.
func statusFor(bucket string) (*rpcStatus, bool) { return &rpcStatus{code: len(bucket)}, bucket != "" }

// PutLeader goes round at once only on one code, read from a value made
// from the error and held in a variable (`st, ok := status.FromError(err);
// st.Code() == codes.X`), as `codeOf(err).Code == "NoSuchBucket"` does:
// identified. Not reported.
func PutLeader(ctx context.Context, s bucketStore, bucket string) error {
	for {
		err := s.Put(ctx, bucket)
		if err == nil {
			return nil
		}
		st, ok := statusOf(err)
		if ok && st.Code() == codeNoLeader {
			continue
		}
		return err
	}
}

// Near miss: the value is made from something other than the error; the
// loop goes round at once on any failure while it holds the code.
func PutRecorded(ctx context.Context, s bucketStore, bucket string) error {
	for { // want `retry loop has no bound` `tries again at once`
		err := s.Put(ctx, bucket)
		if err == nil {
			return nil
		}
		st, ok := statusFor(bucket)
		if ok && st.Code() == codeNoLeader {
			continue
		}
		return err
	}
}
