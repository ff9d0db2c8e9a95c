package bulkhead_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/resilint/resilint/runtime/bulkhead"
)

func ExampleBulkhead_Do() {
	b, err := bulkhead.New(bulkhead.Config{MaxConcurrent: 2})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	// Hold both slots, as two slow calls would.
	_ = b.Acquire(ctx)
	_ = b.Acquire(ctx)

	err = b.Do(ctx, func(context.Context) error {
		fmt.Println("not reached")
		return nil
	})
	fmt.Println(err, errors.Is(err, bulkhead.ErrFull))
	fmt.Println("in use:", b.InUse(), "rejected:", b.Rejected())
	// Output:
	// bulkhead: full true
	// in use: 2 rejected: 1
}

func ExampleBulkhead_Acquire() {
	b, err := bulkhead.New(bulkhead.Config{MaxConcurrent: 1, MaxWait: time.Second})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	if err := b.Acquire(ctx); err != nil {
		panic(err)
	}
	go func() {
		time.Sleep(10 * time.Millisecond) // a call finishing
		b.Release()
	}()
	// All slots are taken: this waits (at most a second) for the one released above.
	if err := b.Acquire(ctx); err != nil {
		fmt.Println(err)
		return
	}
	defer b.Release()
	fmt.Println("got a slot")
	// Output: got a slot
}
