#!/bin/sh
# The kernel cache under many processes at once (Note [Many processes,
# one cache] in runtime/cache.c), as the ranks of an MPI job start:
#   - 8 processes of one program started together on an empty
#     FLAT_CACHE_DIR all give the results of a plain gcc build, with no
#     warning, on the device;
#   - each builds each of its nests' programs once, compiled or loaded
#     from what another process stored meanwhile (FLAT_LOG=2 "build"
#     lines), never a part of an entry;
#   - no temporary file is left in the cache;
#   - 8 more processes then load every program from the cache: none
#     compiles, none replaces an entry.
# Needs an OpenCL device (PoCL will do): skipped without one.
. "$(dirname "$0")/harness.sh"
harness_nests
tmp=$HARNESS_TMP
"$tmp/ref" plain > "$tmp/ref.out" || harness_error "the reference failed"
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-300}
FLAT_CACHE_DIR=$tmp/cache
export FLAT_CACHE_DIR
N=8

# wave NAME: $N processes at once, each checked against the reference;
# process I's stderr in $tmp/NAME.err.I.
wave ()
{
  i=0
  rm -f "$tmp"/ok.*
  while [ $i -lt $N ]; do
    i=$((i + 1))
    (FLAT_DEVICE=opencl FLAT_LOG=2 harness_timed "$tmp/flat" plain \
       > "$tmp/$1.out.$i" 2> "$tmp/$1.err.$i" \
     && cmp -s "$tmp/ref.out" "$tmp/$1.out.$i" && : > "$tmp/ok.$i") &
  done
  wait
  i=0
  while [ $i -lt $N ]; do
    i=$((i + 1))
    err=$tmp/$1.err.$i
    [ -f "$tmp/ok.$i" ] \
      || { cat "$err" >&2; harness_fail "$1: process $i of $N failed or gave wrong results"; }
    grep -q warning "$err" \
      && { cat "$err" >&2; harness_fail "$1: process $i of $N warned"; }
    grep -q "^flat: run .* on opencl" "$err" || {
      [ $1 = first ] && [ $i -eq 1 ] && { echo "SKIP: no OpenCL device" >&2; exit 77; }
      cat "$err" >&2; harness_fail "$1: process $i of $N did not use the device"; }
    # One build per nest (the program has two), whatever its source.
    nests=$(sed -n 's/^flat: run \([^ ]*\) on opencl.*/\1/p' "$err" | sort -u)
    [ "$(echo "$nests" | wc -l)" -eq 2 ] \
      || { cat "$err" >&2; harness_fail "$1: process $i of $N ran $(echo "$nests" | wc -l) nests on the device, not 2"; }
    for nest in $nests; do
      [ "$(grep -c "^flat: build $nest on opencl: " "$err")" -eq 1 ] \
	|| { cat "$err" >&2; harness_fail "$1: process $i of $N built $nest other than once"; }
    done
  done
}

rm -rf "$FLAT_CACHE_DIR"
wave first
ls -A "$FLAT_CACHE_DIR" | grep -v '^[0-9a-f]\{16\}\.bin$' \
  && harness_fail "files other than entries left in the cache"
[ "$(ls "$FLAT_CACHE_DIR" | wc -l)" -eq 2 ] \
  || { ls -l "$FLAT_CACHE_DIR" >&2; harness_fail "expected 2 entries in the cache"; }
compiled=$(cat "$tmp"/first.err.* | grep -c "^flat: build .*: compiled in")
[ "$compiled" -ge 2 ] || harness_fail "the first wave compiled $compiled programs"

# Entries by inode: a process that stores one renames a new file over it.
ls -i "$FLAT_CACHE_DIR" | sort > "$tmp/entries.first"
wave second
ls -i "$FLAT_CACHE_DIR" | sort > "$tmp/entries.second"
cat "$tmp"/second.err.* | grep "^flat: build .*: compiled in" \
  && harness_fail "the second wave compiled what the cache holds"
cmp -s "$tmp/entries.first" "$tmp/entries.second" \
  || { diff "$tmp/entries.first" "$tmp/entries.second" >&2; harness_fail "the second wave replaced cache entries"; }
echo "ok: $N processes at once on an empty cache ($compiled compiler runs for 2 programs), then $N from the cache: right results, whole entries, no temporary files"
