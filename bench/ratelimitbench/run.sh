#!/usr/bin/env bash
# Runs the side-by-side rate-limit benchmarks and summarizes them with
# benchstat. Six rounds of every benchmark, one after another (-count 1 per
# round), so that load from other processes on a shared machine falls on
# every implementation alike; benchstat then reports medians over the six.
#
#   RESILINT_REDIS_ADDR=127.0.0.1:6379 bash bench/ratelimitbench/run.sh [rounds] [benchmark regexp]
set -euo pipefail
cd "$(dirname "$0")"
rounds=${1:-6}
pattern=${2:-.}
out=${OUT:-bench.txt}
benchstat="go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"
: >"$out"
for _ in $(seq "$rounds"); do
	go test -run '^$' -bench "$pattern" -count 1 . >>"$out"
done
$benchstat -col /impl "$out"
