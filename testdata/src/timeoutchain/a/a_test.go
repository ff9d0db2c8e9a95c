package a

import (
	"context"
	"testing"
)

func TestBackgroundInTests(t *testing.T) {
	_ = call(context.Background())
}
