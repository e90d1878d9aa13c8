#!/bin/sh
# A table of rows whose rows overlap another array of the same nest,
# one of them written (robust/row_overlap.c): the runtime runs the nest
# on the host with one warning naming both, and the results are plain
# gcc's; a nest whose rows lie elsewhere runs on the device, silently.
# Exits 77 without OpenCL.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
CC=${CC:-gcc}
harness_tmpdir
tmp=$HARNESS_TMP
prog=$HARNESS_DIR/robust/row_overlap.c
harness_numdiff

$CC -std=gnu11 -O2 -Wno-unknown-pragmas "$prog" -o "$tmp/ref" \
  || harness_error "the reference build failed"
"$FLAT_GCC" -std=gnu11 -O2 "$prog" -o "$tmp/flat" 2>"$tmp/cc.err" \
  || harness_fail "the flat-gcc build failed"
! grep -q 'flat:' "$tmp/cc.err" \
  || harness_fail "a nest was not lifted: $(grep 'flat:' "$tmp/cc.err")"
for size in 1 33; do
  "$tmp/ref" "$size" >"$tmp/ref.out" || harness_fail "the reference failed"
  FLAT_DEVICE=opencl FLAT_DEFAULT_THRESHOLD=0 FLAT_LOG=1 "$tmp/flat" "$size" \
    >"$tmp/flat.out" 2>"$tmp/flat.err" || harness_fail "the program failed"
  if grep -q "^flat: warning:.*no opencl" "$tmp/flat.err"; then
    echo "SKIP: no OpenCL device" >&2
    exit 77
  fi
  "$NUMDIFF" "$tmp/ref.out" "$tmp/flat.out" >/dev/null \
    || harness_fail "size $size: the output differs from the reference"
  [ "$(grep -c "warning: row_overlap.c:[0-9]*: .*the rows of 't' overlap 'b'" \
	"$tmp/flat.err")" -eq 1 ] \
    || harness_fail "size $size: no one warning about the rows of 't': $(cat "$tmp/flat.err")"
  [ "$(grep -c '^flat: warning:' "$tmp/flat.err")" -eq 1 ] \
    || harness_fail "size $size: other warnings: $(cat "$tmp/flat.err")"
  grep -q "^flat: run row_overlap.c:[0-9]* on opencl" "$tmp/flat.err" \
    || harness_fail "size $size: the second nest did not run on the device"
done
echo "ok: rows overlapping another array of the nest run on the host, with one warning"
