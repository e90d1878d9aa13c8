#!/bin/sh
# -flto (SPEC section 2, drop-in builds): GCC loads the plugin again in
# lto1 for the link-time compilation, where there is no C front end; it
# must load there and do nothing, and the program must run its lifted
# nests as without -flto.  robust/nests.c built with -O2 -flto: no
# diagnostic, the results of a plain gcc build on the host (1 and 3
# threads) and on an OpenCL device if there is one, and a FLAT_LOG line
# per nest execution.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
harness_tmpdir
tmp=$HARNESS_TMP
src=$HARNESS_DIR/robust/nests.c
${CC:-gcc} -std=gnu11 -O2 -pthread -Wno-unknown-pragmas "$src" \
  -o "$tmp/ref" || harness_error "reference build failed"
if ! "$FLAT_GCC" -std=gnu11 -O2 -flto -pthread "$src" -o "$tmp/flat" \
     2> "$tmp/build.err" || [ -s "$tmp/build.err" ]; then
  cat "$tmp/build.err" >&2
  harness_fail "the -flto build failed or was not silent"
fi
"$tmp/ref" plain 100000 > "$tmp/ref.out" || harness_error "the reference failed"

# run NAME ENV...: the program under ENV and FLAT_LOG=1; fails unless it
# gives the reference's output and logs its 40 nest executions.
run ()
{
  name=$1
  shift
  harness_timed env FLAT_LOG=1 "$@" "$tmp/flat" plain 100000 \
    > "$tmp/out" 2> "$tmp/err" \
    || { cat "$tmp/err" >&2; harness_fail "$name: the program failed"; }
  cmp -s "$tmp/ref.out" "$tmp/out" \
    || { cat "$tmp/err" >&2; harness_fail "$name: wrong results"; }
  [ "$(grep -c '^flat: run ' "$tmp/err")" -eq 40 ] \
    || { cat "$tmp/err" >&2; harness_fail "$name: not 40 nest executions"; }
}

run "host, 1 thread" FLAT_DEVICE=host FLAT_HOST_THREADS=1
run "host, 3 threads" FLAT_DEVICE=host FLAT_HOST_THREADS=3
run "OpenCL" FLAT_DEVICE=opencl FLAT_DEFAULT_THRESHOLD=0
if grep -q 'on host: host version (no device' "$tmp/err"; then
  echo "SKIP: no OpenCL device (the host runs passed)" >&2
  exit 77
fi
grep -q '^flat: run .* on opencl: ' "$tmp/err" \
  || { cat "$tmp/err" >&2; harness_fail "OpenCL: no nest ran on the device"; }
echo "ok: -flto builds lift and run"
exit 0
