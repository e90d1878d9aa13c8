#!/bin/sh
# `#pragma flat host_data use_device(u)' and flat_deviceptr at run time
# (SPEC section 2.5), with host_data/halo.c: a data region whose array a
# "library" copies halo cells of at each step, at the addresses the
# block sees, or through `update' where there are none.  On each device
# the block must see what the user guide (section 3.9) says,
#   plain gcc build, FLAT_DEVICE=host   inside: host
#   OpenCL (PoCL)                       inside: null
#   CUDA                                inside: device
# the function form the same addresses, and the results must be the
# plain build's.  The host runs here always; OpenCL and CUDA where they
# are (skipped, as a whole, when neither is).
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
harness_tmpdir
tmp=$HARNESS_TMP
harness_numdiff
src=$HARNESS_DIR/host_data/halo.c
args="1000 10"
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-120}

${CC:-gcc} -std=gnu11 -O2 -Wno-unknown-pragmas "$src" -o "$tmp/ref" -ldl \
  || harness_error "the reference build failed"
"$FLAT_GCC" -std=gnu11 -O2 -DFLAT_API "$src" -o "$tmp/flat" -ldl \
  2> "$tmp/build.err" \
  || { cat "$tmp/build.err" >&2; harness_fail "the Flat build failed"; }
grep 'flat:' "$tmp/build.err" \
  && harness_fail "the Flat build has diagnostics"
# shellcheck disable=SC2086
"$tmp/ref" $args > "$tmp/ref.out" || harness_error "the reference failed"
[ "$(sed -n 1p "$tmp/ref.out")" = "inside: host" ] \
  || harness_error "the reference saw $(sed -n 1p "$tmp/ref.out")"
sed 1d "$tmp/ref.out" > "$tmp/ref.values"

# check DEVICE WANT: a run under FLAT_DEVICE=DEVICE, which must exit 0
# and, if it ran its nests on DEVICE, warn of nothing, see WANT in the
# block and give the reference's values; 77 if there is no DEVICE.
check ()
{
  # shellcheck disable=SC2086
  FLAT_DEVICE=$1 FLAT_LOG=1 harness_timed "$tmp/flat" $args \
    > "$tmp/$1.out" 2> "$tmp/$1.err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$tmp/$1.err" >&2; harness_fail "FLAT_DEVICE=$1: exit $rc"; }
  grep -q "^flat: run .* on $1: " "$tmp/$1.err" || return 77
  grep -q '^flat: warning' "$tmp/$1.err" \
    && { cat "$tmp/$1.err" >&2; harness_fail "FLAT_DEVICE=$1: warned"; }
  seen=$(sed -n 1p "$tmp/$1.out")
  [ "$seen" = "inside: $2" ] \
    || harness_fail "FLAT_DEVICE=$1: the block saw '$seen', not 'inside: $2'"
  sed 1d "$tmp/$1.out" > "$tmp/$1.values"
  "$NUMDIFF" "$tmp/ref.values" "$tmp/$1.values" > "$tmp/diff" 2>&1 \
    || { cat "$tmp/diff" >&2; harness_fail "FLAT_DEVICE=$1: wrong results"; }
  echo "ok: FLAT_DEVICE=$1: the block saw $2 addresses, right results"
  return 0
}

check host host || harness_fail "FLAT_DEVICE=host ran no nest on the host"
ran=0
check opencl null && ran=1 || echo "note: no OpenCL device: OpenCL not checked"
check cuda device && ran=1 || echo "note: no CUDA device: CUDA not checked"
[ $ran -eq 1 ] || { echo "SKIP: no OpenCL or CUDA device: only the host checked" >&2; exit 77; }
