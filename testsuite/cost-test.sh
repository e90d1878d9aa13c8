#!/bin/sh
# The choice between the device and the parallel host version by
# measured cost (SPEC section 3, Note [Device or host] in
# runtime/cost.c), read from the FLAT_LOG=1 lines of robust/nests.c,
# whose two nests run 20 times each above their threshold, with the
# results of a plain gcc build:
#   - FLAT_DEVICE=auto on an OpenCL CPU device (PoCL): per nest, two runs
#     on the device, then one on the host to measure it, then the faster
#     side, which the log line's own times must show;
#   - FLAT_DEVICE=opencl: every run on the device, no cost model;
#   - FLAT_DEVICE=host: every run on the host, on any number of threads,
#     with the same results;
#   - FLAT_DEVICE=auto with the device started in the background
#     (FLAT_EAGER=1): a run that comes while the start lasts takes the
#     host and does not wait (Note [Not waiting for the start]).  The
#     measurements above run with FLAT_EAGER=0, which opens the device
#     at the first run;
#   - FLAT_DEVICE=auto with an empty kernel cache: a nest's first run
#     takes the host rather than wait for a compilation, the next ones
#     measure the device;
#   - FLAT_DEVICE=auto, the runs paced so that the start ends among
#     them: the runs beside the start are not timed, so that after it a
#     nest measures the device and then the host.
# Without an OpenCL CPU device the first part cannot run, and the test
# is skipped after the others pass.
. "$(dirname "$0")/harness.sh"
harness_nests
tmp=$HARNESS_TMP
size=100000			# above the default threshold, 32768
"$tmp/ref" plain $size > "$tmp/ref.out" || harness_error "the reference failed"

# run NAME ENV...: the program at $size under ENV and FLAT_LOG=1, its log
# in $tmp/err, in the way $mode says (default plain); fails unless it
# exits 0 with the reference's output.
run ()
{
  name=$1
  shift
  harness_timed env FLAT_LOG=1 "$@" "$tmp/flat" "${mode:-plain}" $size \
    > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$tmp/err" >&2; harness_fail "$name: exit $rc"; }
  cmp -s "$tmp/ref.out" "$tmp/out" \
    || { cat "$tmp/err" >&2; harness_fail "$name: wrong results"; }
}

for threads in 1 3; do
  run "FLAT_DEVICE=host, $threads threads" FLAT_DEVICE=host \
    FLAT_HOST_THREADS=$threads
done

run "FLAT_DEVICE=opencl" FLAT_DEVICE=opencl
if grep -q 'on host: host version (no device' "$tmp/err"; then
  echo "SKIP: no OpenCL device" >&2
  exit 77
fi
[ "$(grep -c '^flat: run .* on opencl: ' "$tmp/err")" -eq 40 ] \
  || { cat "$tmp/err" >&2; harness_fail "FLAT_DEVICE=opencl: not all 40 runs on the device"; }

run "FLAT_DEVICE=auto" FLAT_DEVICE=auto FLAT_EAGER=0
grep -q '^flat: run .* on opencl: .*(pthread-' "$tmp/err" || {
  echo "SKIP: the OpenCL device is not PoCL's CPU device" >&2
  exit 77
}
for nest in $(sed -n 's/^flat: run \([^ ]*\) on .*/\1/p' "$tmp/err" \
		| sort -u); do
  grep "^flat: run $nest on " "$tmp/err" > "$tmp/nest"
  [ "$(wc -l < "$tmp/nest")" -eq 20 ] \
    || { cat "$tmp/err" >&2; harness_fail "$nest: not 20 runs"; }
  # Lines 1-2 on the device, 3 and 4 (and up to 6, if a run was not
  # timed as it started or woke the threads) on the host to measure it,
  # then each line on the side its times favour.
  awk -v nest="$nest" '
    function bad(why) { print nest " run " NR ": " why ": " $0; failed = 1 }
    NR <= 2 && !/ on opencl: / { bad("expected the device") }
    / on host: host version .*\(measuring the host: the device runs on its processors\)$/ {
      # Until two host runs were timed, four at most.
      measuring++
      if (NR > 6 || NR != measuring + 2)
        bad("measuring too late")
      next
    }
    NR == 3 { bad("expected a run measuring the host") }
    / on host: / {
      if (!match($0, /\(([0-9.e+-]+) ms on the host, ([0-9.e+-]+) ms on the device\)$/))
        bad("no times")
      else {
        split(substr($0, RSTART + 1), t, " ")
        if (t[1] + 0 >= t[6] + 0) bad("the host is not the faster")
      }
    }
    END { exit failed }' "$tmp/nest" >&2 \
    || harness_fail "FLAT_DEVICE=auto: $nest did not follow its measurements"
done

# An empty kernel cache: each nest's first run takes the host rather than
# compile, the next ones measure the device (compiling then).
FLAT_CACHE_DIR=$tmp/cold
export FLAT_CACHE_DIR
run "FLAT_DEVICE=auto, empty cache" FLAT_DEVICE=auto FLAT_EAGER=0
for nest in $(sed -n 's/^flat: run \([^ ]*\) on .*/\1/p' "$tmp/err" \
		| sort -u); do
  grep "^flat: run $nest on " "$tmp/err" > "$tmp/nest"
  sed -n 1p "$tmp/nest" \
    | grep -q ' on host: host version .*(its kernels are not compiled yet)$' \
    && sed -n 2,3p "$tmp/nest" | grep -c ' on opencl: .*measuring the device)$' \
       | grep -q '^2$' \
    || { cat "$tmp/nest" >&2; harness_fail "empty cache: $nest compiled at its first run, or never"; }
done

# The start in the background: runs before its end are on the host, said
# to be so, and the first run does not wait for it (a PoCL start takes
# far longer than a run of 100000 iterations on the host).
run "FLAT_DEVICE=auto, FLAT_EAGER=1" FLAT_DEVICE=auto FLAT_EAGER=1 FLAT_LOG=2
awk '
  function bad(why) { print "line " NR ": " why ": " $0; failed = 1 }
  /^flat: device start ends / { ended = 1; next }
  /^flat: run / {
    runs++
    starting = / on host: host version .*\(the device is still starting\)$/
    if (starting && ended) bad("still starting after the start ended")
    if (!ended && !starting) bad("a run before the start ended waited")
  }
  END { if (!runs) bad("no runs"); exit failed }' "$tmp/err" >&2 \
  || harness_fail "FLAT_EAGER=1: a run waited for the device start"

# Runs beside the start are not timed (Note [Host width] in
# runtime/host_parallel.c): with the runs paced over 0.4 s, a PoCL start
# (30 ms to 0.2 s) ends among them, and each nest's runs after it
# measure the device twice and then the host, as if none had come
# before.  Timed beside the start, they would have spared the host's.
mode=paced run "FLAT_DEVICE=auto, paced runs" FLAT_DEVICE=auto FLAT_EAGER=1 \
  FLAT_LOG=2
mode=
if ! grep -q '^flat: device start ends ' "$tmp/err"; then
  echo "note: the device start outlasted the paced runs" >&2
else
  for nest in $(sed -n 's/^flat: run \([^ ]*\) on .*/\1/p' "$tmp/err" \
		  | sort -u); do
    sed -n '/^flat: device start ends /,$p' "$tmp/err" \
      | grep "^flat: run $nest on " \
      | grep -v '(the device is still starting)$' \
      | grep -v '(its kernels are not compiled yet)$' \
      | sed -n 1,3p > "$tmp/nest"
    [ "$(wc -l < "$tmp/nest")" -lt 3 ] && continue
    sed -n 1,2p "$tmp/nest" \
      | grep -c ' on opencl: .*measuring the device)$' | grep -q '^2$' \
      && sed -n 3p "$tmp/nest" \
	 | grep -q ' on host: .*(measuring the host: ' \
      || { cat "$tmp/err" >&2;
	   harness_fail "paced: $nest kept host times from beside the start"; }
  done
fi
echo "ok: device or host by measured cost"
exit 0
