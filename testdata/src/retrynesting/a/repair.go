package a

import (
	"context"
	"errors"
)

// problem is the server's account of why it refused a request.
type problem struct{ Type string }

func (p *problem) Error() string { return p.Type }

func recreateAccount(ctx context.Context) error { return call(ctx) }

// obtainRepaired runs the inner retry a second time only after the server
// said the account is gone and it was made again: a repair, then one more
// try, on a reply the inner retry returns at once. Whether the inner
// retry's last failure can be that reply is not in the code: no finding.
func obtainRepaired(ctx context.Context) error {
	var err error
	for range 2 {
		err = fetchPrice(ctx)
		if err == nil {
			return nil
		}
		var p *problem
		if errors.As(err, &p) && p.Type == "accountDoesNotExist" {
			if err := recreateAccount(ctx); err != nil {
				return err
			}
			continue
		}
		return err
	}
	return err
}

// obtainAnyBut goes round on every failure of the inner retry but the
// server's refusal: reported.
func obtainAnyBut(ctx context.Context) error {
	var err error
	for range 2 { // want `nested retry: retry loop makes 2 attempts, each reaching fetchPrice`
		err = fetchPrice(ctx)
		if err == nil {
			return nil
		}
		var p *problem
		if errors.As(err, &p) {
			return err
		}
	}
	return err
}
