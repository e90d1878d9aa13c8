#!/bin/sh
# fork() after nests ran on a device: the child runs its nests (on the
# host, with one warning saying why) and never hangs, while another
# thread of the parent is running nests at the fork; the parent goes on
# on its device.  With FLAT_DEVICE=opencl (skipped without an OpenCL
# device) and FLAT_DEVICE=host; right results against a plain build.
. "$(dirname "$0")/harness.sh"
harness_nests
tmp=$HARNESS_TMP
"$tmp/ref" fork > "$tmp/ref.out" || harness_error "the reference failed"
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-60}

for device in opencl host; do
  FLAT_DEVICE=$device FLAT_LOG=1 harness_timed "$tmp/flat" fork \
    > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -eq 124 ] && harness_fail "FLAT_DEVICE=$device: hung"
  [ $rc -eq 0 ] || { cat "$tmp/err" >&2; harness_fail "FLAT_DEVICE=$device: exit $rc"; }
  cmp -s "$tmp/ref.out" "$tmp/out" \
    || { diff "$tmp/ref.out" "$tmp/out" >&2; harness_fail "FLAT_DEVICE=$device: wrong results"; }
  if [ $device = opencl ]; then
    grep -q "^flat: run .* on opencl" "$tmp/err" || {
      echo "SKIP: no OpenCL device" >&2; continue; }
    [ "$(grep -c "warning: forked while a device was open" "$tmp/err")" -eq 1 ] \
      || { cat "$tmp/err" >&2; harness_fail "expected one warning from the child"; }
    grep -q "^flat: run .* on host: .*(forked while a device was open)" \
      "$tmp/err" || harness_fail "the child's nests logged no reason"
  else
    grep -q "warning" "$tmp/err" \
      && { cat "$tmp/err" >&2; harness_fail "FLAT_DEVICE=host warned"; }
  fi
done
echo "ok: child and parent of fork() run their nests, right results"
