package model_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/resilint/resilint/analyzers/internal/model"
	"github.com/resilint/resilint/analyzers/internal/testutil"
)

func TestModel(t *testing.T) {
	analysistest.Run(t, testutil.TestData(), model.Analyzer, "model/...")
}
