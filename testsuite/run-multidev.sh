#!/bin/sh
# run-multidev.sh PROGRAM.c: one test of nests spread over several
# devices (FLAT_DEVICES, SPEC section 3.1), on PoCL's CPU presented as
# two and three OpenCL devices (POCL_DEVICES="pthread pthread", or
# "cpu cpu" on older PoCL).
#
#   $CC -O2 PROGRAM.c -o ref                  the reference
#   $FLAT_GCC -O2 PROGRAM.c -o flat           and its versions (flat-tune)
#
# At each size, once per forced version (as run-e2e.sh forces them),
# flat runs with FLAT_DEVICE=opencl and every nest's split threshold
# ("NEST.split") at 1, so that two iterations already split: on one
# device (no FLAT_DEVICES), and with FLAT_DEVICES=all on two and on
# three.  Every output must match ref (numdiff, with the program's
# tolerance).  At the largest size each multi-device run is repeated and
# must give the same bytes: the devices' results combine in a fixed
# order.  Then, with no threshold set, at FLAT_TEST_LARGE iterations
# (default 70001: the work of a nest of one unit per iteration is a
# little more than twice the default threshold), on three devices such
# a nest splits over two, and the others over two or three.
#
# The logs (FLAT_LOG=1) must say, for every run on the device at the
# largest size, that each nest named by `/* multidev: split A B */'
# was split over all the devices, and that each one named by
# `/* multidev: single C D */' was not (it ran on the first device).
#
# The same runs on one device have FLAT_PIPELINE=always and every
# nest's pipeline threshold ("NEST.pipeline") at 0, so that a nest that
# moves any bytes is cut into slices that take turns on two queues of
# the device (Note [Pipelined slices] in runtime/run_pipeline.c).  At
# the largest size, the nests named by `/* multidev: pipelined E F */'
# must say they were pipelined, and the other nests of the split and
# single lists that they were not.  With one device only (a machine of one GPU),
# only these runs are made.
#
# On a machine of several GPUs (gpu/run.sh): FLAT_MULTIDEV_GPUS=yes uses
# the devices there, FLAT_MULTIDEV_DEVICE (cuda or opencl, default
# opencl) of them, one, the first two, and the first three where there
# are three, by FLAT_DEVICES=0,1 and 0,1,2; the large run on all.
#
# Environment: FLAT_GCC (required to build), FLAT_TUNE (beside it), CC,
# NUMDIFF, FLAT_TEST_SIZES ("0 1 2 3 7 4099"), FLAT_TEST_LARGE, TMPDIR.
# Prebuilt programs, for a machine that cannot build them (gpu/):
#   FLAT_TEST_BUILD_DIR=DIR   only build, into DIR/ref, DIR/flat (linked
#                             with $FLAT_TEST_LDFLAGS too) and
#                             DIR/versions
#   FLAT_TEST_PREBUILT=DIR    only run and compare the programs in DIR
# Exit status: 0 pass, 1 fail, 77 skip (no such device, or fewer than
# two: the reason is printed), 99 hard error.

. "$(dirname "$0")/harness.sh"

[ $# -eq 1 ] || harness_error "usage: run-multidev.sh PROGRAM.c"
prog=$1
name=$(basename "$prog")
[ -r "$prog" ] || harness_error "cannot read $prog"
CC=${CC:-gcc}
device=${FLAT_MULTIDEV_DEVICE:-opencl}
gpus=${FLAT_MULTIDEV_GPUS:-no}

sizes=$(harness_directive "$prog" 'flat-test: sizes')
[ -n "$sizes" ] || sizes=${FLAT_TEST_SIZES:-0 1 2 3 7 4099}
largest=$(echo $sizes | tr ' ' '\n' | sort -n | tail -n 1)
large=${FLAT_TEST_LARGE:-70001}
tolerance=$(harness_directive "$prog" 'flat-test: tolerance')
split_nests=$(harness_directive "$prog" 'multidev: split')
single_nests=$(harness_directive "$prog" 'multidev: single')
pipelined_nests=$(harness_directive "$prog" 'multidev: pipelined')

harness_tmpdir
tmp=$HARNESS_TMP
bin=${FLAT_TEST_PREBUILT:-${FLAT_TEST_BUILD_DIR:-$tmp}}

if [ -z "${FLAT_TEST_PREBUILT:-}" ]; then
  [ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
  FLAT_TUNE=${FLAT_TUNE:-$(dirname "$FLAT_GCC")/flat-tune}
  [ -x "$FLAT_TUNE" ] || harness_error "no flat-tune at $FLAT_TUNE"
  mkdir -p "$bin" || harness_error "cannot create $bin"
  $CC -std=gnu11 -O2 -Wno-unknown-pragmas "$prog" -o "$bin/ref" -lm \
    || harness_fail "$name: the reference build with $CC failed"
  # FLAT_TEST_LDFLAGS is empty or options: split on purpose.
  # shellcheck disable=SC2086
  "$FLAT_GCC" -std=gnu11 -O2 "$prog" -o "$bin/flat" -lm \
    ${FLAT_TEST_LDFLAGS:-} 2>"$tmp/flat.cc" \
    || harness_fail "$name: the flat-gcc build failed"
  if grep -q 'flat:' "$tmp/flat.cc"; then
    sed 's/^/  | /' "$tmp/flat.cc" >&2
    harness_fail "$name: flat-gcc reported a problem (not lifted?)"
  fi
  "$FLAT_TUNE" --versions "$bin/flat" >"$bin/versions" \
    || harness_fail "$name: flat-tune --versions failed"
fi
if [ -n "${FLAT_TEST_BUILD_DIR:-}" ]; then
  echo "built: $name in $bin"
  exit 0
fi
harness_numdiff
for f in ref flat versions; do
  [ -e "$bin/$f" ] || harness_error "no $bin/$f"
done

# probe ENV...: the devices FLAT_DEVICES=all opens with ENV (every nest
# on the device, so that it opens), 0 if none; the log in probe.log.
probe ()
{
  env "$@" FLAT_DEVICE="$device" FLAT_DEVICES=all FLAT_DEFAULT_THRESHOLD=0 \
    FLAT_LOG=1 "$bin/flat" 1 >/dev/null 2>"$tmp/probe.log"
  if grep -q "^flat: warning:.*$device" "$tmp/probe.log"; then
    echo 0
  else
    echo $(($(grep -c "^flat: device .* on $device: .*(FLAT_DEVICES)" \
	      "$tmp/probe.log") + 1))
  fi
}

# The devices: on GPUs, those there (three at most); on PoCL, the
# driver ("pthread", else "cpu") that presents two devices when listed
# twice, and that many of it.
pocl=
if [ "$gpus" = yes ]; then
  most=$(probe)
  [ "$most" -le 3 ] || most=3
else
  most=0
  for driver in pthread cpu; do
    if [ "$(probe POCL_DEVICES="$driver $driver")" -ge 2 ]; then
      pocl=$driver
      most=3
      break
    fi
  done
fi
if [ "$most" -lt 2 ]; then
  if grep -q "warning:.*$device" "$tmp/probe.log"; then
    echo "SKIP: $name: no $device device" >&2
  elif [ "$gpus" = yes ]; then
    echo "$name: one $device device only: pipelines alone" >&2
    most=1
  else
    echo "SKIP: $name: PoCL presents one device only (POCL_DEVICES=" \
      "'pthread pthread' and 'cpu cpu' gave no second one)" >&2
  fi
  [ "$most" -eq 1 ] || exit 77
fi

# Every nest's split threshold at 1 and pipeline threshold at 0.
split_settings=$(cut -f 1 "$bin/versions" | sort -u \
  | sed 's/[^A-Za-z0-9_]/_/g
	 s/^\(.*\)$/FLAT_THRESHOLD_\1_split=1 FLAT_THRESHOLD_\1_pipeline=0/')
n_versions=$(cut -f 1 "$bin/versions" | sort | uniq -c \
  | awk '$1 > max { max = $1 } END { print max + 0 }')

# The settings of forced run $1: version min($1, count - 1) of each nest.
forced ()
{
  awk -F '\t' -v v="$1" '
    { count[$1]++; line[$1, $2] = $4 }
    END { for (n in count) print line[n, v < count[n] ? v : count[n] - 1] }
  ' "$bin/versions" | tr ' ' '\n'
}

# run OUT DEVICES SIZE SETTINGS...: flat at SIZE on DEVICES devices (1:
# no FLAT_DEVICES), output in OUT, log in OUT.log; compared with ref.
run ()
{
  out=$1 count=$2 size=$3
  shift 3
  if [ -n "$pocl" ]; then
    # That many PoCL devices, all of them.
    list=$pocl
    i=1
    while [ $i -lt "$count" ]; do
      list="$list $pocl"
      i=$((i + 1))
    done
    set -- POCL_DEVICES="$list" "$@"
    [ "$count" -lt 2 ] || set -- FLAT_DEVICES=all "$@"
  elif [ "$count" -gt 1 ]; then
    # The first COUNT GPUs.
    set -- FLAT_DEVICES="$(seq -s , 0 $((count - 1)))" "$@"
  fi
  [ "$count" -gt 1 ] || set -- FLAT_PIPELINE=always "$@"
  if ! env FLAT_DEVICE="$device" FLAT_LOG=1 "$@" "$bin/flat" "$size" \
       >"$out" 2>"$out.log"; then
    sed 's/^/  | /' "$out.log" | tail -n 15 >&2
    harness_fail "$name: run at $size on $count device(s) failed ($*)"
  fi
  if grep -q '^flat: warning' "$out.log"; then
    grep '^flat: warning' "$out.log" | sed 's/^/  | /' >&2
    harness_fail "$name: warning at $size on $count device(s) ($*)"
  fi
  # shellcheck disable=SC2086
  if ! "$NUMDIFF" ${tolerance:+-t "$tolerance"} "$tmp/ref.$size" "$out" \
       >"$tmp/diff" 2>&1; then
    sed 's/^/  | /' "$tmp/diff" | head -n 10 >&2
    harness_fail "$name: output at $size on $count device(s) differs from" \
      "$CC's ($*)"
  fi
}

# check_split LOG DEVICES: the lines of the nests in $split_nests that
# ran on the device say they were split over DEVICES devices (a
# pattern), those in $single_nests that they were not split.
check_split ()
{
  for nest in $split_nests; do
    grep "^flat: run $nest on $device: " "$1" | grep -v "split over $2 " \
      | sed 's/^/  | /' | grep . >&2 \
      && harness_fail "$name: $nest was not split over $2 devices ($1)"
  done
  for nest in $single_nests; do
    grep "^flat: run $nest on $device: " "$1" | grep "split over" \
      | sed 's/^/  | /' | grep . >&2 \
      && harness_fail "$name: $nest was split ($1)"
  done
  return 0
}

# check_pipelined LOG: the lines of the nests in $pipelined_nests that
# ran on the device say they were pipelined, those of the other nests
# listed that they were not.
check_pipelined ()
{
  for nest in $pipelined_nests; do
    grep "^flat: run $nest on $device: " "$1" \
      | grep -v "; pipelined in [2-8] slices" | sed 's/^/  | /' | grep . >&2 \
      && harness_fail "$name: $nest was not pipelined ($1)"
  done
  for nest in $split_nests $single_nests; do
    case " $pipelined_nests " in
      *" $nest "*) continue ;;
    esac
    grep "^flat: run $nest on $device: " "$1" | grep "; pipelined in" \
      | sed 's/^/  | /' | grep . >&2 \
      && harness_fail "$name: $nest was pipelined ($1)"
  done
  return 0
}

counts=$(seq 1 "$most")
runs=0
for size in $sizes; do
  "$bin/ref" "$size" >"$tmp/ref.$size" \
    || harness_fail "$name: the reference failed at $size"
  v=0
  while [ $v -lt "$n_versions" ]; do
    # shellcheck disable=SC2046
    set -- $(forced $v) $split_settings
    for count in $counts; do
      run "$tmp/out.$size.$v.$count" $count "$size" "$@"
      runs=$((runs + 1))
      if [ "$size" = "$largest" ] && [ $count -eq 1 ]; then
	check_pipelined "$tmp/out.$size.$v.$count.log"
      fi
      if [ "$size" = "$largest" ] && [ $count -gt 1 ]; then
	check_split "$tmp/out.$size.$v.$count.log" $count
	run "$tmp/again.$size.$v.$count" $count "$size" "$@"
	cmp -s "$tmp/out.$size.$v.$count" "$tmp/again.$size.$v.$count" \
	  || harness_fail "$name: two runs at $size on $count devices" \
	       "differ (version run $v)"
      fi
    done
    v=$((v + 1))
  done
done

if [ "$most" -eq 1 ]; then
  echo "ok: $name on one $device device, pipelines alone, at sizes $sizes," \
    "$n_versions version(s), $runs runs"
  exit 0
fi

# Large enough by the default threshold: on three devices, two or three
# slices by the work of each nest (on two, two).
"$bin/ref" "$large" >"$tmp/ref.$large" \
  || harness_fail "$name: the reference failed at $large"
run "$tmp/out.large" "$most" "$large"
check_split "$tmp/out.large.log" "[2-$most]"
grep -q "split over 2 " "$tmp/out.large.log" \
  || [ -z "$split_nests" ] \
  || harness_fail "$name: at $large no nest split over fewer devices than" \
       "listed"

echo "ok: $name on $(echo $counts | tr ' ' ,) $device device(s)" \
  "${pocl:+(PoCL $pocl) }at sizes $sizes and $large, $n_versions" \
  "version(s), $runs runs"
