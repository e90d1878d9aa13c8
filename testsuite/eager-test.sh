#!/bin/sh
# FLAT_EAGER (SPEC section 3), read from the FLAT_LOG=2 lines of
# robust/nests.c, with the results of a plain gcc build:
#   - FLAT_EAGER=0 and every nest below its threshold: no device starts,
#     not even in a child of fork(), which runs its nests unwarned;
#   - FLAT_DEVICE=host: no device starts, whatever FLAT_EAGER says;
#   - a bad FLAT_EAGER: one warning naming it, and the default (1);
#   - a program that returns from main at once, and one whose thread
#     runs a nest and calls exit() at once, 20 times each under
#     FLAT_EAGER=1: exit status 0, no hang, the start ended before the
#     exit (Note [Exit during the start] in runtime/startup.c) or, in
#     the thread that began it, was never begun (Note [A start that
#     waits for the program]), which at least one of the returns from
#     main finds;
#   - FLAT_EAGER=1 (or unset) and nests forced onto an OpenCL device
#     (FLAT_DEFAULT_THRESHOLD=0): one start, in the background, that the
#     nests take; FLAT_EAGER=0: one start, on demand; FLAT_EAGER=1 and a
#     fork below the threshold: the child warns once that the device was
#     started at start-up.
# Without an OpenCL device (PoCL will do) the last part cannot run, and
# the test is skipped after the others pass.
. "$(dirname "$0")/harness.sh"
harness_nests
tmp=$HARNESS_TMP
small=1000			# below the default threshold, 32768
for mode in plain fork exit exit-thread; do
  "$tmp/ref" $mode $small > "$tmp/ref.$mode" \
    || harness_error "the reference failed"
done
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-60}

# run NAME MODE ENV...: the program in MODE at size $small under ENV and
# FLAT_LOG=2, its log in $tmp/err; fails unless it exits 0 in time with
# the reference's output.
run ()
{
  name=$1 mode=$2
  shift 2
  harness_timed env FLAT_LOG=2 "$@" "$tmp/flat" $mode $small \
    > "$tmp/out" 2> "$tmp/err"
  rc=$?
  [ $rc -eq 124 ] && harness_fail "$name: hung"
  [ $rc -eq 0 ] || { cat "$tmp/err" >&2; harness_fail "$name: exit $rc"; }
  cmp -s "$tmp/ref.$mode" "$tmp/out" \
    || { cat "$tmp/err" >&2; harness_fail "$name: wrong results"; }
}

# expect PATTERN N WHAT: N lines of the last log match PATTERN.
expect ()
{
  [ "$(grep -c -e "$1" "$tmp/err")" -eq "$2" ] \
    || { cat "$tmp/err" >&2; harness_fail "$name: expected $2 $3"; }
}

begins='^flat: device start begins'
ends='^flat: device start ends'
forgone='^flat: device start not begun: the program exits first$'

# background WHAT: the last log has one start in the background, begun
# and ended, or forgone as the program exited first.
background ()
{
  if grep -q -e "$forgone" "$tmp/err"; then
    expect "$forgone" 1 "forgone start"
    expect "$begins" 0 "device starts"
  else
    expect "$begins (background)$" 1 "start in the background"
    expect "$ends (background): [a-z]* after [0-9.]* ms$" 1 "$1"
  fi
}

run "FLAT_EAGER=0" plain FLAT_EAGER=0
expect "$begins" 0 "device starts"
expect "^flat: run .* on host: host version .*(below threshold)$" 40 \
  "nests on the host"
run "FLAT_EAGER=0, fork" fork FLAT_EAGER=0
expect "$begins" 0 "device starts"
expect "warning" 0 "warnings"
run "FLAT_DEVICE=host" plain FLAT_DEVICE=host FLAT_EAGER=1
expect "$begins" 0 "device starts"

for value in 2 yes -1; do
  run "FLAT_EAGER=$value" plain FLAT_EAGER=$value
  expect "warning" 1 "warning"
  expect "^flat: warning: ignoring FLAT_EAGER='$value': expected 0 or 1$" 1 \
    "warning naming FLAT_EAGER"
  background "end of the start"
done

i=0 forgone_runs=0
while [ $i -lt 20 ]; do
  i=$((i + 1))
  for mode in exit exit-thread; do
    run "immediate $mode, run $i" $mode FLAT_EAGER=1
    background "end of the start before the exit"
    if grep -q -e "$forgone" "$tmp/err"; then
      [ $mode = exit ] || harness_fail "$name: exit() of another thread" \
	"forwent the start"
      forgone_runs=$((forgone_runs + 1))
    fi
  done
done
[ $forgone_runs -gt 0 ] \
  || harness_fail "no immediate return from main forwent the start"

run "FLAT_EAGER=1 on OpenCL" plain FLAT_EAGER=1 FLAT_DEVICE=opencl \
  FLAT_DEFAULT_THRESHOLD=0
if grep -q "$ends (background): host" "$tmp/err"; then
  echo "SKIP: no OpenCL device" >&2
  exit 77
fi
expect "$begins (background)$" 1 "start in the background"
expect "$ends (background): opencl after " 1 "start of OpenCL"
expect "$begins" 1 "start"
expect "^flat: run .* on opencl: k0 " 40 "nests on OpenCL"
expect "warning" 0 "warnings"
run "FLAT_EAGER unset on OpenCL" plain FLAT_DEVICE=opencl \
  FLAT_DEFAULT_THRESHOLD=0
expect "$begins (background)$" 1 "start in the background"
expect "^flat: run .* on opencl: k0 " 40 "nests on OpenCL"
run "FLAT_EAGER=0 on OpenCL" plain FLAT_EAGER=0 FLAT_DEVICE=opencl \
  FLAT_DEFAULT_THRESHOLD=0
expect "$begins (on demand)$" 1 "start on demand"
expect "$begins" 1 "start"
expect "^flat: run .* on opencl: k0 " 40 "nests on OpenCL"
run "FLAT_EAGER=1, fork" fork FLAT_EAGER=1 FLAT_DEVICE=opencl
expect "warning" 1 "warning, the child's"
expect "^flat: warning: forked while a device was open: .*FLAT_EAGER=0" 1 \
  "warning that names FLAT_EAGER"
echo "ok: FLAT_EAGER: host nests start nothing (0), background start (1)"
