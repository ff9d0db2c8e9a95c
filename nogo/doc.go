// Package nogo documents resilint under Bazel's nogo (rules_go).
//
// nogo takes analyzers from go_library targets that export a variable
// named Analyzer. Each check's own package (analyzers/retrynesting, ...)
// does, but those are the bare checks: they do not honour
// //resilint:ignore. The packages under nogo/ export the suite's analyzers
// instead — the same checks wrapped for suppression, and ignorecheck,
// which reports malformed directives — so that a nogo build reports what
// `resilint ./...` and `go vet -vettool` report:
//
//	nogo(
//	    name = "resilint_nogo",
//	    deps = [
//	        "@com_github_resilint_resilint//nogo/retrynesting",
//	        "@com_github_resilint_resilint//nogo/decoratororder",
//	        "@com_github_resilint_resilint//nogo/idempotency",
//	        "@com_github_resilint_resilint//nogo/timeoutchain",
//	        "@com_github_resilint_resilint//nogo/backoff",
//	        "@com_github_resilint_resilint//nogo/ratelimit",
//	        "@com_github_resilint_resilint//nogo/ignorecheck",
//	    ],
//	    config = ":nogo_config.json",
//	    visibility = ["//visibility:public"],
//	)
//
// None needs a flag. docs/integrations.md has the whole set-up.
package nogo
