#!/bin/sh
# A Flat program under a hostile environment gives the results of a plain
# gcc build, and reports each problem once on stderr, naming the variable,
# never echoing raw bytes:
#   - a bad value of every FLAT_* variable of SPEC section 3 and of the
#     launchers' node-local ranks, a binary tuning file, an escape
#     sequence in a value;
#   - a kernel cache whose every file is truncated or garbled;
#   - 4 threads running nests at once.
# (Many processes on one cache: cache-concurrency-test.sh.)
# Needs an OpenCL device (PoCL will do): skipped without one.
. "$(dirname "$0")/harness.sh"
harness_nests
tmp=$HARNESS_TMP
"$tmp/ref" plain > "$tmp/ref.plain" || harness_error "the reference failed"
"$tmp/ref" threads > "$tmp/ref.threads" || harness_error "the reference failed"
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-120}
FLAT_CACHE_DIR=$tmp/cache
export FLAT_CACHE_DIR

# run NAME OUT ERR MODE ENV...: the program in MODE under ENV (and
# FLAT_DEVICE=opencl unless ENV sets it), failing unless it exits 0
# with the reference's output and writes only printable text on stderr.
run ()
{
  name=$1 out=$2 err=$3 mode=$4
  shift 4
  env FLAT_DEVICE=opencl "$@" "$tmp/flat" $mode > "$out" 2> "$err"
  rc=$?
  [ $rc -eq 0 ] || { cat "$err" >&2; harness_fail "$name: exit $rc"; }
  cmp -s "$tmp/ref.$mode" "$out" || harness_fail "$name: wrong results"
  [ "$(LC_ALL=C tr -d '\n -~' < "$err" | wc -c)" -eq 0 ] \
    || { od -c "$err" | head >&2; harness_fail "$name: raw bytes on stderr"; }
}

run "plain" "$tmp/out" "$tmp/err" plain FLAT_LOG=1
grep -q "^flat: run .* on opencl" "$tmp/err" \
  || { echo "SKIP: no OpenCL device" >&2; exit 77; }

# Bad values: exactly one warning, naming the variable.
: > "$tmp/file"
esc=$(printf 'x\033[2Jy')
for var in FLAT_TUNING=/bin/ls FLAT_DEVICE=xyz FLAT_GROUP_SIZE=-3 \
	   FLAT_GROUP_SIZE=abc FLAT_DEFAULT_THRESHOLD=1e99 FLAT_LOG=7 \
	   FLAT_THRESHOLD_x=oops FLAT_CACHE_DIR=$tmp/file/ro \
	   FLAT_DEVICE_INDEX=99 FLAT_PLATFORM=nosuch FLAT_PROFILE=2 FLAT_EAGER=2 \
	   FLAT_PIPELINE=yes \
	   "FLAT_PLATFORM=$esc" "FLAT_DEVICE=$esc" "FLAT_TUNING=$tmp/f$esc" \
	   OMPI_COMM_WORLD_LOCAL_RANK=-1 MPI_LOCALRANKID=x SLURM_LOCALID=1.5
do
  name=${var%%=*}
  run "$name" "$tmp/out" "$tmp/err" plain "$var"
  [ "$(grep -c "warning" "$tmp/err")" -eq 1 ] \
    && [ "$(grep -c "$name" "$tmp/err")" -eq 1 ] \
    || { cat "$tmp/err" >&2; harness_fail "$name: expected one warning naming it"; }
done
run "FLAT_TUNING=/bin/ls" "$tmp/out" "$tmp/err" plain FLAT_TUNING=/bin/ls
grep -q "FLAT_TUNING='/bin/ls': line 1 " "$tmp/err" \
  || { cat "$tmp/err" >&2; harness_fail "the binary tuning file's line is not named"; }

# A damaged cache: every file truncated or garbled.
rm -rf "$FLAT_CACHE_DIR"
run "first run" "$tmp/out" "$tmp/err" plain
n=0
for f in "$FLAT_CACHE_DIR"/*.bin; do
  [ -f "$f" ] || harness_fail "nothing cached in $FLAT_CACHE_DIR"
  n=$((n + 1))
  size=$(wc -c < "$f")
  case $((n % 3)) in
    0) head -c $((size / 2)) "$f" > "$f.new" ;;
    1) { head -c 60 "$f"; head -c $((size - 60)) /dev/zero | tr '\0' '\377'; } > "$f.new" ;;
    2) : > "$f.new" ;;
  esac
  mv "$f.new" "$f"
done
[ $n -ge 2 ] || harness_fail "expected at least 2 cache files, got $n"
run "damaged cache" "$tmp/out" "$tmp/err" plain
grep -q warning "$tmp/err" && { cat "$tmp/err" >&2; harness_fail "damaged cache: warned"; }
run "repaired cache" "$tmp/out" "$tmp/err" plain

# 4 threads at once.
run "threads" "$tmp/out" "$tmp/err" threads FLAT_LOG=1
grep -q "^flat: run .* on opencl" "$tmp/err" || harness_fail "threads did not use the device"
echo "ok: bad values reported once, damaged caches, threads: right results"
