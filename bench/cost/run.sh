#!/usr/bin/env bash
# The cost of analysis, side by side in one run: resilint standalone (cold
# and warm) against staticcheck, and resilint under `go vet -vettool`
# against plain `go vet`, on the standard library and on one large public
# module (golang.org/x/tools, pinned below). Prints wall time, CPU time
# (user+sys), peak resident memory and the ratios. docs/performance.md
# shows a run and says how to read it.
#
# Usage: bench/cost/run.sh [std] [module]     (both by default)
#
# Environment:
#   STATICCHECK  a staticcheck binary (default: staticcheck on PATH; the
#                comparison is skipped without one). Pinned version:
#                go install honnef.co/go/tools/cmd/staticcheck@v0.8.2
#   VET=0        skip the go vet comparison (the slowest part)
#   RESILINT     a resilint binary to measure instead of building this tree
#   OUT          where to keep the logs and caches (default: a temporary dir)
#
# The go build cache is used warm (the compiler's work is not what is
# measured); resilint's and staticcheck's own caches are emptied before
# each cold run (RESILINT_CACHE, STATICCHECK_CACHE).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
MODULE=golang.org/x/tools
MODVER=v0.52.0
OUT=${OUT:-$(mktemp -d -t resilint-cost.XXXXXX)}
mkdir -p "$OUT"
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(std module)

if [ -z "${RESILINT:-}" ]; then
  go build -o "$OUT/resilint" ./cmd/resilint
  RESILINT=$OUT/resilint
fi
STATICCHECK=${STATICCHECK:-$(command -v staticcheck || true)}
echo "resilint:    $("$RESILINT" version 2>&1 | head -1)"
[ -n "$STATICCHECK" ] && echo "staticcheck: $("$STATICCHECK" -version 2>&1 | head -1)"
echo "go:          $(go version)"
echo "machine:     $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "logs:        $OUT"
echo

# measure NAME DIR CMD...: runs CMD in DIR under /usr/bin/time and records
# wall seconds, CPU seconds (user+sys) and peak RSS (MB) in $OUT/NAME.t.
measure() {
  local name=$1 dir=$2; shift 2
  ( cd "$dir" && /usr/bin/time -f '%e %U %S %M' -o "$OUT/$name.time" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err" ) || true
  # The last line: /usr/bin/time writes "Command exited with non-zero
  # status N" first when the tool reports findings.
  read -r wall user sys kb < <(tail -n 1 "$OUT/$name.time") || { echo "$name: no timing (see $OUT/$name.err)"; return; }
  local cpu; cpu=$(echo "$user + $sys" | bc)
  echo "$wall $cpu $((kb / 1024))" >"$OUT/$name.t"
  printf '%-34s %8.1f s wall %8.1f s cpu %7d MB peak\n' "$name" "$wall" "$cpu" "$((kb / 1024))"
}
# fresh_id TOOL: a wrapper of the vet tool TOOL that answers -V=full
# with a build ID never seen before, and runs TOOL for everything else.
fresh_id() {
  local w; w=$(mktemp "$OUT/vettool.XXXXXX")
  cat >"$w" <<WRAP
#!/bin/sh
for a in "\$@"; do [ "\$a" = -V=full ] && { echo "vet version devel buildID=$$-$RANDOM-$(date +%s%N)/$RANDOM"; exit 0; }; done
exec "$1" "\$@"
WRAP
  chmod +x "$w"; echo "$w"
}
# ratio A B: A's CPU time and peak memory over B's.
ratio() {
  [ -f "$OUT/$1.t" ] && [ -f "$OUT/$2.t" ] || return 0
  read -r _ ca ma <"$OUT/$1.t"; read -r _ cb mb <"$OUT/$2.t"
  printf '  %-32s cpu %5.2fx   peak memory %5.2fx   (%s / %s)\n' "ratio" \
    "$(echo "scale=3; $ca / $cb" | bc)" "$(echo "scale=3; $ma / $mb" | bc)" "$1" "$2"
}

run_target() {
  local t=$1 dir pat
  case $t in
  std) dir=$(go env GOROOT)/src; pat=std ;;
  module)
    dir=$OUT/src/tools
    if [ ! -d "$dir" ]; then
      local modsrc; modsrc=$(cd "$ROOT" && go mod download -json "$MODULE@$MODVER" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
      mkdir -p "$OUT/src" && cp -r "$modsrc" "$dir" && chmod -R u+w "$dir"
      (cd "$dir" && go mod download)
    fi
    pat=./... ;;
  *) echo "unknown target $t (std or module)"; exit 2 ;;
  esac
  echo "== $t ($(cd "$dir" && go list $pat 2>/dev/null | wc -l) packages)"
  (cd "$dir" && go list -export -deps -test $pat >/dev/null 2>&1) || true # warm the build cache
  rm -rf "$OUT/rcache"
  measure "$t resilint cold" "$dir" env RESILINT_CACHE="$OUT/rcache" "$RESILINT" $pat
  measure "$t resilint warm" "$dir" env RESILINT_CACHE="$OUT/rcache" "$RESILINT" $pat
  if [ -n "$STATICCHECK" ]; then
    rm -rf "$OUT/scache"
    measure "$t staticcheck cold" "$dir" env STATICCHECK_CACHE="$OUT/scache" "$STATICCHECK" -checks all $pat
    measure "$t staticcheck warm" "$dir" env STATICCHECK_CACHE="$OUT/scache" "$STATICCHECK" -checks all $pat
    ratio "$t resilint cold" "$t staticcheck cold"
    ratio "$t resilint warm" "$t staticcheck warm"
  fi
  if [ "${VET:-1}" != 0 ]; then
    # go vet caches its results under the tool's build ID: each tool runs
    # behind a wrapper that gives it a new ID, so that both do all their
    # work (the packages named and their dependencies' facts), as on a
    # first run; the compiler's work stays cached.
    measure "$t go vet" "$dir" go vet -vettool="$(fresh_id "$(go env GOTOOLDIR)/vet")" $pat
    measure "$t go vet -vettool=resilint" "$dir" go vet -vettool="$(fresh_id "$RESILINT")" $pat
    ratio "$t go vet -vettool=resilint" "$t go vet"
  fi
  echo
}

for t in "${targets[@]}"; do run_target "$t"; done
