#!/bin/sh
# Transfers of data regions, counted in the FLAT_LOG=2 log of
# e2e/region_block.c: the region's arrays move at its entry and exit and
# on update only; the nests inside (also in a called function) move
# nothing; create() arrays are never copied.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
harness_tmpdir
tmp=$HARNESS_TMP
"$FLAT_GCC" -std=gnu11 -O2 -I"$HARNESS_DIR/e2e" "$HARNESS_DIR/e2e/region_block.c" \
  -o "$tmp/prog" -lm || harness_fail "build failed"
FLAT_DEVICE=opencl FLAT_LOG=2 "$tmp/prog" 33 > /dev/null 2> "$tmp/log" \
  || harness_fail "run failed"
if grep -q "^flat: warning:.*no opencl" "$tmp/log"; then
  echo "SKIP: no OpenCL device" >&2
  exit 77
fi
count () { grep -c "$1" "$tmp/log"; }
[ "$(count '^flat: run .* on opencl')" -eq 5 ] || harness_fail "nests did not run on the device"
[ "$(count '^flat: copyin region ')" -eq 2 ] || harness_fail "expected 2 region copy-ins"
[ "$(count '^flat: copyout region ')" -eq 2 ] || harness_fail "expected 2 region copy-outs"
[ "$(count '^flat: update host region ')" -eq 1 ] || harness_fail "expected 1 update host"
[ "$(count '^flat: update device region ')" -eq 1 ] || harness_fail "expected 1 update device"
[ "$(grep -E '^flat: copy(in|out) ' "$tmp/log" | grep -vc ' region ')" -eq 0 ] \
  || { cat "$tmp/log" >&2; harness_fail "a nest inside a region transferred data"; }
echo "ok: region transfers only at entry, exit and update"
