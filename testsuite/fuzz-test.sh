#!/bin/sh
# The differential fuzzer on a fixed budget: testsuite/fuzz/run-fuzz.sh
# on fixed seeds of testsuite/fuzz/flat-fuzz-gen (built by `make check'),
# 33 default programs, 13 --long ones (larger, with varied group
# sizes; 33128, 33186 and 33209 failed once and stay as regressions, as
# do the default 32831 and 34003), 5 --tiles ones (nests the tiling
# rules and implicit reductions take; 71058 crashed PoCL once, the 8 x 8
# register tile of a long body overflowing its stack), 3 --columns ones
# (column-major arrays, which pass coalescing orders) and 2
# --branch-loops ones (branches to loops and inner SOACs, rule I5;
# 90362 fell back to the host once, an estimate loading rows its band's
# empty loop never read), each checked by run-e2e.sh against plain gcc
# at -O2 and -O0, every version forced.  Together they cover every
# construct the generator makes (map nests one to three deep with inner maps, reduces,
# scans and sequential loops, top-level reduces with several operators,
# scans, histograms, data regions, helpers, switch, local arrays,
# <math.h> calls, loops left by break, while loops, arrays of structs,
# declared reductions, CSR rows); all of them pass today, so a failure
# is a regression (a change of the generator changes the programs: run
# the seeds again, and check that run-fuzz.sh still lists every
# construct).
# FLAT_FUZZ_SEEDS, FLAT_FUZZ_LONG_SEEDS, FLAT_FUZZ_TILES_SEEDS,
# FLAT_FUZZ_COLUMNS_SEEDS and FLAT_FUZZ_BRANCH_SEEDS override them
# ("A-B,C,...").
# Failing programs are kept in testsuite/fuzz-failures.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
gen=$HARNESS_DIR/fuzz/flat-fuzz-gen
[ -x "$gen" ] || harness_error "no $gen (make check builds it)"
seeds=${FLAT_FUZZ_SEEDS:-1-30,37,32831,34003}
long_seeds=${FLAT_FUZZ_LONG_SEEDS:-1000-1009,33128,33186,33209}
tiles_seeds=${FLAT_FUZZ_TILES_SEEDS:-1,2,5,6,71058}
columns_seeds=${FLAT_FUZZ_COLUMNS_SEEDS:-4,5,15}
branch_seeds=${FLAT_FUZZ_BRANCH_SEEDS:-90003,90362}
harness_tmpdir
status=0
# fuzz MODE SEEDS: run-fuzz.sh on SEEDS with option MODE (none if empty);
# the first failing status stays.
fuzz ()
{
  # MODE is one option or none: unquoted on purpose.
  # shellcheck disable=SC2086
  FLAT_FUZZ_GEN=$gen sh "$HARNESS_DIR/fuzz/run-fuzz.sh" $1 --seeds "$2" \
    --keep "$HARNESS_DIR/fuzz-failures" > "$HARNESS_TMP/out" 2>&1
  mode_status=$?
  cat "$HARNESS_TMP/out"
  [ $status -ne 0 ] || status=$mode_status
}
fuzz "" "$seeds"
fuzz --long "$long_seeds"
fuzz --tiles "$tiles_seeds"
fuzz --columns "$columns_seeds"
fuzz --branch-loops "$branch_seeds"
case $status in
  0) exit 0 ;;
  1) harness_fail "the fuzzer found failures (see above)" ;;
  *) harness_error "run-fuzz.sh failed (status $status)" ;;
esac
