// Package suppress implements resilint's suppression directive,
//
//	//resilint:ignore <check>[,<check>] <reason>
//
// and the ignorecheck analyzer that reports directives that are wrong.
//
// A directive is a line comment that starts exactly with
// "//resilint:ignore" (no space after the slashes, like every Go
// directive). It silences the diagnostics of the named checks whose
// position is on the directive's own line or on the line below it. The
// reason is required: a directive without one, or naming a check that does
// not exist, silences nothing and is itself reported.
//
// Suppression is driver-independent: [Wrap] returns a copy of an analyzer
// whose Run filters what the analyzer reports, so it works wherever the
// analyzer runs (the standalone checker, go vet, golangci-lint, Bazel's
// nogo, the language server). The suite in package analyzers is made of
// wrapped analyzers plus [Checker].
//
// # Analyzer ignorecheck
//
// ignorecheck: report //resilint:ignore directives that are malformed, name unknown checks, or (with -unused-ignores) suppress nothing
//
// A finding that does not apply is silenced where it is reported, with the
// reason written beside it for the next reader:
//
//	//resilint:ignore retrynesting the inner client is built with RetryMax 0 in production
//	for attempt := 0; attempt < 3; attempt++ {
//
// The directive goes on the line of the finding or on the line above it,
// and may name several checks separated by commas, without spaces:
// //resilint:ignore backoff,retrynesting <reason>. This check reports:
//
//   - malformed: a directive with no check names or no reason. It
//     silences nothing until it is complete: a suppression whose reason
//     nobody wrote down cannot be reviewed later;
//   - unknown: a name that is not one of resilint's checks (usually a typo);
//     the other names of the directive still apply;
//   - unused: with -unused-ignores (or -ignorecheck.unused), a directive
//     that silenced no finding of a check it names, so that stale
//     suppressions get removed once the code is fixed. It is reported by
//     ignorecheck, once per check the directive names that it silenced
//     nothing of; every check is judged, also one switched off on the
//     command line (ignorecheck requires them all).
package suppress
