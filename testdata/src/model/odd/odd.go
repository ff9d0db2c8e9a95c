// Package odd holds unusual but well-typed code: the model must not panic
// on it, and must judge it sensibly.
package odd

import (
	"context"
	"errors"
	"iter"
	"net/http"
)

func call() error { return nil }

func hugeBound() error { // want hugeBound:`retries\(\?\)`
	var err error
	for i := 0; i < 1<<62; i++ {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

func shifty() error {
	var err error
	for i := 1; i < 1000; i <<= 70 {
		if err = call(); err == nil {
			return nil
		}
	}
	return err
}

func divByZero() error { // want divByZero:`retries\(\?\)`
	z := 0
	var err error
	for i := 0; i < 3/1; i += 1 / (z + 1) {
		if err = call(); err == nil {
			return nil
		}
		z = z - 1
	}
	return err
}

func fallthroughs(n int) error { // want fallthroughs:`retries\(2\)`
	for i := 0; i < 2; i++ {
		switch n {
		case 1:
			fallthrough
		case 2:
			if err := call(); err == nil {
				return nil
			}
		default:
		}
	}
	return errors.New("x")
}

func forwardGoto() error {
	err := call()
	if err != nil {
		goto fail
	}
	return nil
fail:
	return err
}

func emptySelect(ctx context.Context) {
	for {
		select {}
	}
}

func seq(yield func(int) bool) {}

func rangeFunc() error {
	for range iter.Seq[int](seq) {
		if err := call(); err == nil {
			return nil
		}
	}
	return nil
}

type G[T any] struct{ v T }

func (g *G[T]) Do() error { return nil }

func generic[T any](g *G[T]) error { // want generic:`retries\(2\)`
	var err error
	for range 2 {
		if err = g.Do(); err == nil {
			return nil
		}
	}
	return err
}

func recursive(n int) error { // want recursive:`retries\(\?\)`
	for i := 0; i < 2; i++ {
		if err := recursive(n - 1); err == nil {
			return nil
		}
	}
	return nil
}

func typeSwitch(x any) error {
	for i := 0; i < 2; i++ {
		switch v := x.(type) {
		case error:
			if v == nil {
				return nil
			}
		case nil:
			return call()
		}
	}
	return nil
}

func closureCond() error {
	ok := func() bool { return call() == nil }
	for !ok() {
	}
	return nil
}

func statusNoResp(resp *http.Response) bool {
	for resp.StatusCode >= 500 {
		return true
	}
	return false
}

func labeledSwitch(n int) error {
sw:
	switch n {
	case 1:
		for i := 0; i < 2; i++ {
			if err := call(); err != nil {
				break sw
			}
		}
	}
	return nil
}

func mutualA(n int) error { // want mutualA:`retries\(\?\)`
	for i := 0; i < 2; i++ {
		if mutualB(n) == nil {
			return nil
		}
	}
	return nil
}

func mutualB(n int) error { // want mutualB:`retries\(\?, nested 2\)`
	for i := 0; i < 2; i++ {
		if mutualA(n) == nil {
			return nil
		}
	}
	return nil
}
