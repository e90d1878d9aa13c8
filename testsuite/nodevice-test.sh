#!/bin/sh
# A Flat binary on a machine without a device: libflat links no device
# library, the program starts and runs its original loops, an asked-for
# device that is missing is reported once, and bad FLAT_* values are
# reported once and ignored.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
top=$(cd "$HARNESS_DIR/.." && pwd)
harness_tmpdir
tmp=$HARNESS_TMP
lib=$top/.libs/libflat.so
[ -e "$lib" ] || harness_error "no $lib"
if ldd "$lib" | grep -E -q "libOpenCL|libcuda|libnvrtc"; then
  ldd "$lib" >&2
  harness_fail "libflat links a device library"
fi
src=$HARNESS_DIR/e2e/saxpy.c
${CC:-gcc} -std=gnu11 -O2 -Wno-unknown-pragmas -I"$HARNESS_DIR/e2e" "$src" \
  -o "$tmp/ref" -lm || harness_error "reference build failed"
"$FLAT_GCC" -std=gnu11 -O2 -I"$HARNESS_DIR/e2e" "$src" -o "$tmp/flat" -lm \
  || harness_fail "flat build failed"
"$tmp/ref" 33 > "$tmp/ref.out"
mkdir "$tmp/no-icd"

# No OpenCL platform at all: auto falls back to the host silently.
OCL_ICD_VENDORS=$tmp/no-icd FLAT_LOG=1 "$tmp/flat" 33 > "$tmp/out" 2> "$tmp/err" \
  || harness_fail "the program failed without a device"
cmp -s "$tmp/ref.out" "$tmp/out" || harness_fail "wrong results without a device"
grep -q "^flat: run .* on host" "$tmp/err" || harness_fail "no host run logged"
grep -q "warning" "$tmp/err" && { cat "$tmp/err" >&2; harness_fail "auto warned"; }

# FLAT_DEVICE=opencl without a platform: one warning, right results.
OCL_ICD_VENDORS=$tmp/no-icd FLAT_DEVICE=opencl "$tmp/flat" 33 > "$tmp/out" 2> "$tmp/err" \
  || harness_fail "the program failed with FLAT_DEVICE=opencl and no device"
cmp -s "$tmp/ref.out" "$tmp/out" || harness_fail "wrong results (opencl, no device)"
[ "$(grep -c "warning" "$tmp/err")" -eq 1 ] \
  || { cat "$tmp/err" >&2; harness_fail "expected exactly one warning"; }

# Bad values: one warning naming each variable, default kept.
for var in FLAT_DEVICE=gpu FLAT_GROUP_SIZE=abc FLAT_LOG=7 FLAT_DEVICE_INDEX=-3 \
	   FLAT_PROFILE=yes FLAT_DEFAULT_THRESHOLD=x FLAT_EAGER=on; do
  name=${var%%=*}
  env "$var" OCL_ICD_VENDORS=$tmp/no-icd "$tmp/flat" 33 > "$tmp/out" 2> "$tmp/err" \
    || harness_fail "$var: the program failed"
  cmp -s "$tmp/ref.out" "$tmp/out" || harness_fail "$var: wrong results"
  [ "$(grep -c "$name" "$tmp/err")" -eq 1 ] \
    || { cat "$tmp/err" >&2; harness_fail "$var: expected one warning naming $name"; }
done
echo "ok: no device library linked, host fallback, one warning per problem"
