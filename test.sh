#!/usr/bin/env bash
# test.sh runs every test of every module in this repository: the analyzer
# (the root module), the runtime (runtime/, standard library only), each
# Redis store (runtime/*/redisstore) and the benchmark modules (bench/*).
# A plain "go test ./..." at the root no longer reaches the runtime, which is
# a module of its own. Arguments go to every "go test", e.g. ./test.sh -race.
set -euo pipefail
cd "$(dirname "$0")"

status=0
for mod in $(find . -name go.mod -not -path '*/testdata/*' -not -path './.git/*' -printf '%h\n' | sort); do
	echo "== $mod"
	(cd "$mod" && go test "$@" ./...) || status=1
done
exit $status
