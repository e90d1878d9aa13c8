#!/bin/sh
# summary.sh TEST-SUITE-LOG: the one closing line CI reads,
# "N passed, M failed, K skipped", from automake's test-suite.log.
log=${1:-test-suite.log}
[ -r "$log" ] || { echo "0 passed, 1 failed"; exit 1; }
get () { sed -n "s/^# $1: *\([0-9]*\)/\1/p" "$log" | head -n 1; }
pass=$(get PASS); fail=$(get FAIL); skip=$(get SKIP)
xfail=$(get XFAIL); xpass=$(get XPASS); err=$(get ERROR)
pass=$(( ${pass:-0} + ${xfail:-0} ))
fail=$(( ${fail:-0} + ${xpass:-0} + ${err:-0} ))
echo "$pass passed, $fail failed, ${skip:-0} skipped"
