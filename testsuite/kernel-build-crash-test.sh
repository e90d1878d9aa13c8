#!/bin/sh
# A kernel compiler that dies while building does not take the program
# with it: the build runs in flat-kcc, and the nest falls back to the
# host with one warning saying how the build died; results are right.
#
# The compiler is really stopped mid-build and killed: PoCL's own cache
# of the kernels is primed, then its program.bc files are made FIFOs, so
# clBuildProgram blocks reading them; the test kills the flat-kcc
# children of the program with SIGKILL (SIGABRT and SIGSEGV sent from
# outside are caught by LLVM's handlers, which turn them into build
# errors).  Before kernel builds were isolated, the program itself hung
# there, and died of the signal.  Skipped without PoCL.
. "$(dirname "$0")/harness.sh"
command -v pgrep > /dev/null && command -v mkfifo > /dev/null \
  || { echo "SKIP: no pgrep or mkfifo" >&2; exit 77; }
harness_nests
tmp=$HARNESS_TMP
"$tmp/ref" plain > "$tmp/ref.out" || harness_error "the reference failed"
export FLAT_DEVICE=opencl FLAT_PLATFORM=Portable FLAT_LOG=1
export POCL_CACHE_DIR=$tmp/pocl

# Prime PoCL's cache; is there a PoCL device?
FLAT_CACHE_DIR=$tmp/cache0 "$tmp/flat" plain > "$tmp/out" 2> "$tmp/err" \
  || harness_fail "the program failed"
cmp -s "$tmp/ref.out" "$tmp/out" || harness_fail "wrong results"
grep -q "^flat: run .* on opencl" "$tmp/err" \
  || { echo "SKIP: no PoCL device" >&2; exit 77; }
n=0
for f in $(find "$POCL_CACHE_DIR" -name program.bc); do
  rm -f "$f" && mkfifo "$f" || harness_error "cannot make a FIFO"
  n=$((n + 1))
done
[ $n -ge 1 ] || { echo "SKIP: PoCL keeps no program.bc" >&2; exit 77; }

# Flat's cache empty: every program goes to flat-kcc, which blocks.
FLAT_CACHE_DIR=$tmp/cache "$tmp/flat" plain > "$tmp/out" 2> "$tmp/err" &
pid=$!
killed=0
seen=
tries=0
while kill -0 $pid 2> /dev/null && [ $tries -lt 600 ]; do
  tries=$((tries + 1))
  # Each helper once (one not yet reaped is still listed).
  for kcc in $(pgrep -P $pid -x flat-kcc); do
    case " $seen " in
      *" $kcc "*) ;;
      *) seen="$seen $kcc"
	 sleep 0.3
	 kill -KILL $kcc 2> /dev/null && killed=$((killed + 1)) ;;
    esac
  done
  sleep 0.1
done
if kill -0 $pid 2> /dev/null; then
  kill -KILL $pid
  harness_fail "the program hung"
fi
wait $pid
rc=$?
[ $rc -eq 0 ] || { cat "$tmp/err" >&2; harness_fail "the program died (exit $rc)"; }
[ $killed -ge 1 ] || harness_fail "no flat-kcc ran (builds are not isolated)"
cmp -s "$tmp/ref.out" "$tmp/out" \
  || { cat "$tmp/err" >&2; harness_fail "wrong results after a compiler crash"; }
grep -q "^flat: warning: nests.c:[0-9]*: building the program: flat-kcc was killed by signal 9 (.*); running on the host$" \
  "$tmp/err" || { cat "$tmp/err" >&2; harness_fail "no warning naming the nest and the signal"; }
[ "$(grep -c warning "$tmp/err")" -eq $killed ] \
  || { cat "$tmp/err" >&2; harness_fail "expected one warning per killed build"; }
grep -q "^flat: run nests.c:[0-9]* on host: host version (device failed)" "$tmp/err" \
  || harness_fail "no host fallback logged"
echo "ok: $killed compiler(s) killed mid-build: one warning each, host fallback, right results"
