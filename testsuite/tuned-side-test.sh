#!/bin/sh
# The tuning file's host/device entries (SPEC section 4,
# runtime/tuned_side.h), on robust/nests.c, whose two nests (a map, then
# a reduction) run 20 times each, with the results of a plain gcc build:
#   - flat-tune on two datasets (two size classes) writes an entry per
#     nest and class whose side is the faster of its two times, after
#     the thresholds;
#   - with that file under FLAT_DEVICE=auto, every run of each nest, the
#     first included, takes the entry's side and says so: nothing is
#     measured;
#   - a hand-written file sends one nest to the device and the other to
#     the host from the first run (on PoCL the host is usually the faster,
#     so flat-tune's file alone could not show the device side);
#   - flat-tune --list with that file shows each nest's entry;
#   - a class without an entry is measured as without a file;
#     FLAT_DEVICE=opencl/cuda and host override the file; a malformed
#     entry is one warning with the file and line, the rest is used;
#   - an entry for the device without a device: the host runs, with no
#     warning.
# Which side flat-tune finds faster depends on the machine: the test
# checks the mechanism, not the winner.  Without a device, skipped.
# Environment: FLAT_GCC (required to build), FLAT_TUNE (beside it), CC.
# Prebuilt programs, for a machine that cannot build them (gpu/):
#   FLAT_TEST_BUILD_DIR=DIR   only build, into DIR/ref, DIR/flat (linked
#                             with $FLAT_TEST_LDFLAGS too) and
#                             DIR/flat-tune
#   FLAT_TEST_PREBUILT=DIR    only run the programs in DIR
. "$(dirname "$0")/harness.sh"
harness_tmpdir
tmp=$HARNESS_TMP
bin=${FLAT_TEST_PREBUILT:-${FLAT_TEST_BUILD_DIR:-$tmp}}
if [ -z "${FLAT_TEST_PREBUILT:-}" ]; then
  [ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
  FLAT_TUNE=${FLAT_TUNE:-$(dirname "$FLAT_GCC")/flat-tune}
  [ -x "$FLAT_TUNE" ] || harness_error "no flat-tune at $FLAT_TUNE"
  mkdir -p "$bin" || harness_error "cannot create $bin"
  src=$HARNESS_DIR/robust/nests.c
  ${CC:-gcc} -std=gnu11 -O2 -pthread -Wno-unknown-pragmas "$src" \
    -o "$bin/ref" || harness_error "reference build failed"
  # FLAT_TEST_LDFLAGS is empty or options: split on purpose.
  # shellcheck disable=SC2086
  "$FLAT_GCC" -std=gnu11 -O2 -pthread "$src" -o "$bin/flat" \
    ${FLAT_TEST_LDFLAGS:-} || harness_fail "flat build failed"
  cp "$FLAT_TUNE" "$bin/flat-tune" || harness_error "cannot copy flat-tune"
fi
if [ -n "${FLAT_TEST_BUILD_DIR:-}" ]; then
  echo "built: tuned-side-test in $bin"
  exit 0
fi
FLAT_TUNE=$bin/flat-tune
for f in ref flat flat-tune; do
  [ -x "$bin/$f" ] || harness_error "no $bin/$f"
done
cd "$tmp" || harness_error "cannot enter $tmp"
big=100000			# class 16, above the default threshold
small=40000			# class 15, above it too
for size in 0 1 $small $big; do
  "$bin/ref" plain $size > ref.$size || harness_error "the reference failed"
done

# run NAME SIZE ENV...: the program at SIZE under ENV and FLAT_LOG=1, its
# log in err; fails unless it exits 0 with the reference's output.
run ()
{
  name=$1 size=$2
  shift 2
  # FLAT_EAGER=0: the device opens at the first run that wants it, as
  # runs during a start in the background take the host whatever the
  # file says (Note [Not waiting for the start] in runtime/cost.c).
  harness_timed env FLAT_LOG=1 FLAT_EAGER=0 "$@" "$bin/flat" plain "$size" \
    > out 2> err
  rc=$?
  [ $rc -eq 0 ] || { cat err >&2; harness_fail "$name: exit $rc"; }
  cmp -s ref.$size out || { cat err >&2; harness_fail "$name: wrong results"; }
}

# The nests, in the order they first run, and the device.
run "no file" $big
map=$(sed -n 's/^flat: run \([^ ]*\) on .*/\1/p' err | sed -n 1p)
red=$(sed -n 's/^flat: run \([^ ]*\) on .*/\1/p' err | grep -v -F -x "$map" \
  | sed -n 1p)
[ -n "$map" ] && [ -n "$red" ] || { cat err >&2; harness_fail "not two nests"; }
dev=$(sed -n 's/^flat: run [^ ]* on \([a-z]*\): .*/\1/p' err | grep -v host \
  | sed -n 1p)
if [ -z "$dev" ]; then
  echo "SKIP: no device" >&2
  exit 77
fi

# expect NEST SIDE WHY: every run of NEST in err is on SIDE (host or the
# device) and its reason ends with WHY; 20 of them.
expect ()
{
  grep "^flat: run $1 on " err > nest
  [ "$(wc -l < nest)" -eq 20 ] || { cat err >&2; harness_fail "$1: not 20 runs"; }
  if [ "$2" = host ]; then
    want="^flat: run $1 on host: host version .*[(]$3)\$"
  else
    want="^flat: run $1 on $dev: .*; $3)\$"
  fi
  bad=$(grep -c -v -e "$want" nest)
  [ "$bad" -eq 0 ] || { cat nest >&2; harness_fail "$1: $bad runs not on $2 ($3)"; }
}

# ---- flat-tune's entries ----------------------------------------------------

printf '%s\n%s\n' $big $small > datasets
"$FLAT_TUNE" --datasets datasets --timeout 120 -o t.tuning -- "$bin/flat" plain \
  > tune.out 2> tune.err \
  || { cat tune.err >&2; harness_fail "flat-tune failed"; }
sed 's/^/  | /' t.tuning
for nest in $map $red; do
  for class in 15 16; do
    line=$(grep "^$nest@$class=" t.tuning)
    [ "$(echo "$line" | wc -l)" -eq 1 ] && [ -n "$line" ] \
      || harness_fail "no single entry for $nest class $class"
    echo "$line" | awk '
      { split($0, kv, "=") }
      kv[2] !~ /^(host|device) [0-9]+\.[0-9]+ [0-9]+\.[0-9]+$/ { exit 1 }
      { split(kv[2], w, " ") }
      (w[1] == "host") != (w[2] + 0 < w[3] + 0) { exit 1 }' \
      || harness_fail "entry '$line': not the faster side of its times"
    grep -q "^# $nest, class $class (" t.tuning \
      || harness_fail "no comment for $nest class $class"
  done
  grep -q "^$nest\\.0=[0-9]*\$" t.tuning || harness_fail "no threshold of $nest"
done

# The file's sides from the first run on, for both classes.
for size in $big $small; do
  class=16
  [ $size = $big ] || class=15
  run "flat-tune's file at $size" $size FLAT_TUNING=t.tuning
  ! grep -q measuring err || { cat err >&2; harness_fail "measured with an entry"; }
  for nest in $map $red; do
    set -- $(sed -n "s/^$nest@$class=\\([a-z]*\\) \\([0-9.]*\\) \\([0-9.]*\\)\$/\\1 \\2 \\3/p" t.tuning)
    ms=$(awk -v h="$2" -v d="$3" 'BEGIN { printf "%.3g ms on the host, %.3g ms on the device", h, d }')
    expect "$nest" "$1" "tuning file: $ms"
  done
done

# ---- A hand-written file: the map on the device, the reduction on the host -

cat > hand.tuning <<EOF
# old-style threshold lines still load
$map.0=32768
$map@16=device 0.5 0.25
$red@16=host 0.125 2
$red@16=bogus 1 2
EOF
run "hand-written file" $big FLAT_TUNING=hand.tuning
expect "$map" device "tuning file: 0.5 ms on the host, 0.25 ms on the device"
expect "$red" host "tuning file: 0.125 ms on the host, 2 ms on the device"
[ "$(grep -c warning err)" -eq 1 ] \
  && grep -q "^flat: warning: hand.tuning:5: ignoring '$red@16=bogus 1 2': expected NEST@CLASS=" err \
  || { cat err >&2; harness_fail "the malformed entry: not one warning with its line"; }

# flat-tune --list shows each nest's entries, the last of a class.
# section NEST: the lines of NEST in list.
section ()
{
  awk -v h="nest $1" 'index($0, h) == 1 && substr($0, length(h) + 1, 1) ~ /[: ]/ { on = 1 }
    on && /^$/ { exit }
    on' list
}
"$FLAT_TUNE" --list "$bin/flat" hand.tuning > list 2> list.err \
  || { cat list.err >&2; harness_fail "flat-tune --list with a tuning file failed"; }
section "$map" | grep -q -x '    class 16 (65536..131071 iterations): device, 0.5 ms on the host, 0.25 ms on the device' \
  || { cat list >&2; harness_fail "--list: not $map's entry"; }
section "$red" | grep -q -x '    class 16 (65536..131071 iterations): host, 0.125 ms on the host, 2 ms on the device' \
  || { cat list >&2; harness_fail "--list: not $red's entry"; }
[ "$(grep -c '^    class ' list)" -eq 2 ] || { cat list >&2; harness_fail "--list: not 2 entries"; }
grep -q "hand.tuning:5: ignoring" list.err || harness_fail "--list: no warning of the malformed entry"
printf '# no entries\n' > empty.tuning
"$FLAT_TUNE" --list "$bin/flat" empty.tuning > list || harness_fail "--list with an empty file failed"
[ "$(grep -c '^  device or host under FLAT_DEVICE=auto: measured at run time' list)" -eq 2 ] \
  || { cat list >&2; harness_fail "--list: nests without entries"; }

# Class 15 has no entry: measured, the device first.
run "class without an entry" $small FLAT_TUNING=hand.tuning
for nest in $map $red; do
  grep "^flat: run $nest on " err | sed -n 1,2p > nest
  [ "$(grep -c " on $dev: .*; measuring the device)\$" nest)" -eq 2 ] \
    || { cat err >&2; harness_fail "$nest at $small: not measured"; }
done
! grep -q "tuning file" err || harness_fail "an entry used for another class"

# Sizes below the threshold and empty: the host, right results.
for size in 0 1; do
  run "size $size" $size FLAT_TUNING=hand.tuning
done

# FLAT_DEVICE names a side: the file's entries do not count.
run "FLAT_DEVICE=$dev" $big FLAT_TUNING=hand.tuning FLAT_DEVICE=$dev
[ "$(grep -c "^flat: run .* on $dev: " err)" -eq 40 ] \
  || { cat err >&2; harness_fail "FLAT_DEVICE=$dev: not all runs on it"; }
run "FLAT_DEVICE=host" $big FLAT_TUNING=hand.tuning FLAT_DEVICE=host
[ "$(grep -c "^flat: run .* on host: " err)" -eq 40 ] \
  || { cat err >&2; harness_fail "FLAT_DEVICE=host: not all runs on the host"; }
! grep -q "tuning file:" err || harness_fail "FLAT_DEVICE=host used the file"

# An entry for the device without one: the host, and no warning (auto
# warns of no missing device).
if [ "$dev" = opencl ]; then
  mkdir no-icd
  run "no device" $big FLAT_TUNING=hand.tuning OCL_ICD_VENDORS=$tmp/no-icd
  [ "$(grep -c "^flat: run .* on host: " err)" -eq 40 ] \
    || { cat err >&2; harness_fail "no device: not all runs on the host"; }
  [ "$(grep -c warning err)" -eq 1 ] \
    || { cat err >&2; harness_fail "no device: warnings beyond the malformed line"; }
fi
echo "ok: host/device entries of the tuning file"
exit 0
