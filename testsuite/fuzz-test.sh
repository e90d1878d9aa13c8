#!/bin/sh
# The differential fuzzer on a fixed budget: testsuite/fuzz/run-fuzz.sh
# on a few fixed seeds of testsuite/fuzz/flat-fuzz-gen (built by `make
# check'), each program checked by run-e2e.sh against plain gcc.  The
# seeds were chosen to cover every construct the generator makes (map
# nests one to three deep with inner maps, reduces, scans and sequential
# loops, top-level reduces with several operators, scans, histograms, a
# data region, helpers, switch, local arrays, <math.h> calls) and to
# pass with the generator as it is: a failure is a regression (a change
# of the generator may change the programs: check the seeds again).
# FLAT_FUZZ_SEEDS overrides the seeds ("A-B,C,...").
# Failing programs are kept in testsuite/fuzz-failures.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
gen=$HARNESS_DIR/fuzz/flat-fuzz-gen
[ -x "$gen" ] || harness_error "no $gen (make check builds it)"
seeds=${FLAT_FUZZ_SEEDS:-9,16,18,25,36,56}
harness_tmpdir
FLAT_FUZZ_GEN=$gen sh "$HARNESS_DIR/fuzz/run-fuzz.sh" --seeds "$seeds" \
  --keep "$HARNESS_DIR/fuzz-failures" > "$HARNESS_TMP/out" 2>&1
status=$?
cat "$HARNESS_TMP/out"
case $status in
  0) exit 0 ;;
  1) harness_fail "the fuzzer found failures (see above)" ;;
  *) harness_error "run-fuzz.sh failed (status $status)" ;;
esac
