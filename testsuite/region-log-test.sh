#!/bin/sh
# Transfers and warnings of data regions, read from the FLAT_LOG=2 logs
# of five e2e programs on OpenCL:
#   region_block.c       the region's arrays move at its entry and exit
#                        and on update only; the nests inside (also in a
#                        called function) move nothing; create() arrays
#                        are never copied;
#   region_pathfinder.c  a time loop of nests with pointer swapping and
#                        with a copy back: no transfer per step;
#   region_rows.c        boxes of tables of rows (`T **') stay on the
#                        device: they move at the region's entry and exit
#                        and on update (of a row, of part of one) only;
#   region_update.c      the warning of an update of an array that is not
#                        present names the array as the pragma wrote it;
#   versions_matmul.c    outside regions, an array the nest only writes,
#                        whole, is copied out and never in.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
harness_tmpdir
tmp=$HARNESS_TMP

# run_logged NAME SIZE: e2e/NAME.c built and run at SIZE on OpenCL with
# FLAT_LOG=2; the log in $tmp/NAME.log.  Exits 77 without OpenCL.
run_logged ()
{
  "$FLAT_GCC" -std=gnu11 -O2 -I"$HARNESS_DIR/e2e" "$HARNESS_DIR/e2e/$1.c" \
    -o "$tmp/$1" -lm || harness_fail "$1: build failed"
  FLAT_DEVICE=opencl FLAT_LOG=2 "$tmp/$1" "$2" > /dev/null 2> "$tmp/$1.log" \
    || harness_fail "$1: run failed"
  if grep -q "^flat: warning:.*no opencl" "$tmp/$1.log"; then
    echo "SKIP: no OpenCL device" >&2
    exit 77
  fi
  log=$tmp/$1.log
}
count () { grep -c "$1" "$log"; }
# expect PATTERN N WHAT: N lines of the log match PATTERN.
expect ()
{
  [ "$(count "$1")" -eq "$2" ] \
    || { cat "$log" >&2; harness_fail "expected $2 $3"; }
}
# No copy of a nest: every copyin and copyout line is a region's.
no_nest_transfers ()
{
  [ "$(grep -E '^flat: copy(in|out) ' "$log" | grep -vc ' region ')" -eq 0 ] \
    || { cat "$log" >&2; harness_fail "a nest inside a region transferred data"; }
}

run_logged region_block 33
expect '^flat: run .* on opencl' 5 "nests on the device"
expect '^flat: copyin region a\[0:n\] ' 2 "region copy-ins of a"
expect '^flat: copyin region ' 2 "region copy-ins"
expect '^flat: copyout region a\[0:n\] ' 2 "region copy-outs of a"
expect '^flat: copyout region ' 2 "region copy-outs"
expect '^flat: update host region a\[0:n\] ' 1 "update host of a"
expect '^flat: update device region a\[0:n\] ' 1 "update device of a"
expect '^flat: warning' 0 "warnings"
no_nest_transfers

# 33 columns, 5 and then 6 rows: 4 + 5 steps in each of the two forms.
run_logged region_pathfinder 33
expect '^flat: run region_pathfinder.c:[0-9]* on opencl' 27 "nests on the device"
expect '^flat: copyin region wall\[0:rows \* cols\] ' 4 "copy-ins of wall"
expect '^flat: copyin region a\[0:cols\] 132 bytes' 4 "copy-ins of a"
expect '^flat: copyin region b\[0:cols\] 132 bytes' 2 "copy-ins of b (swap only)"
expect '^flat: copyin region ' 10 "region copy-ins"
expect '^flat: copyout region a\[0:cols\] 132 bytes' 4 "copy-outs of a"
expect '^flat: copyout region b\[0:cols\] 132 bytes' 2 "copy-outs of b (swap only)"
expect '^flat: copyout region ' 6 "region copy-outs"
expect '^flat: warning' 0 "warnings"
no_nest_transfers

# 33 rows of 3 floats (feat) and of 5 doubles (w).
run_logged region_rows 33
expect '^flat: run region_rows.c:[0-9]* on opencl' 7 "nests on the device"
expect '^flat: copyin region feat\[0:n\]\[0:F\] 396 bytes' 1 "copy-ins of feat"
expect '^flat: copyin region w\[0:n\]\[0:M\] 1320 bytes' 1 "copy-ins of w"
expect '^flat: copyin region ' 4 "region copy-ins"
expect '^flat: update host region w\[0:n\]\[0:M\] 1320 bytes' 1 "update host of w"
expect '^flat: update device region w\[h:k\]\[0:M\] 40 bytes' 1 "update device of a row"
expect '^flat: update host region w\[h:k\]\[1:3\] 24 bytes' 1 "update host of part of a row"
expect '^flat: update ' 3 "updates"
expect '^flat: copyout region w\[0:n\]\[0:M\] 1320 bytes' 1 "copy-outs of w"
expect '^flat: copyout region ' 3 "region copy-outs"
expect '^flat: warning' 0 "warnings"
no_nest_transfers

run_logged region_update 7
expect "^flat: warning: update host(a\[0:n\]): 'a' is not present in any data region; ignored\$" \
  1 "warnings naming a"
expect '^flat: warning' 1 "warning"
# Outside regions a nest copies in only what it reads: matmul's C, written
# whole and never read (pass coverage), is copied out and never in; the
# three matrix products of the program each copy A and B in.
FLAT_DEFAULT_THRESHOLD=0
export FLAT_DEFAULT_THRESHOLD
run_logged versions_matmul 33
expect '^flat: run mm on opencl' 3 "executions of mm"
expect '^flat: copyin mm c ' 0 "copy-ins of the write-only c"
expect '^flat: copyout mm c ' 3 "copy-outs of c"
expect '^flat: copyin mm a ' 3 "copy-ins of a"
echo "ok: region transfers only at entry, exit and update, of rows too; warnings name arrays; write-only arrays not copied in"
