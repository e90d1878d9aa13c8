#!/bin/sh
# run-e2e.sh PROGRAM.c: one end-to-end test of Flat.
#
# Builds PROGRAM.c twice, by plain $CC (the reference: pragmas ignored)
# and by $FLAT_GCC at several optimization levels, runs both at each size
# on each device, and compares their outputs with numdiff:
#
#   $CC -std=gnu11 -O2 -Wno-unknown-pragmas PROGRAM.c -o ref -lm
#   $FLAT_GCC -std=gnu11 -O$L PROGRAM.c -o flat_O$L -lm   (L = 2 0, and
#                                  1 3 too for programs named opt_*)
#   ./ref N  vs  FLAT_DEVICE=$dev FLAT_LOG=1 ./flat_O$L N
#
# The flat build must be silent about Flat (a "flat:" line means a loop
# was not lifted) and must not crash GCC.  On a device other than host
# and a size above 0, the log must show a nest run on that device and
# none on the host.
#
# Environment: FLAT_GCC (required to build), CC (gcc), FLAT_TEST_SIZES
# ("0 1 7 33 4099"), FLAT_TEST_DEVICES ("opencl host"), FLAT_TEST_TIMEOUT
# (300 seconds per run), NUMDIFF (else built from numdiff.c), TMPDIR;
# FLAT_CACHE_DIR and the other FLAT_* variables reach the programs.
# Prebuilt programs, for a machine that cannot build them (gpu/run.sh):
#   FLAT_TEST_BUILD_DIR=DIR   only build, into DIR/ref and DIR/flat_O$L,
#                             linked with $FLAT_TEST_LDFLAGS too
#   FLAT_TEST_PREBUILT=DIR    only run and compare the programs in DIR
# Header comments of PROGRAM.c override the sizes and the relative
# tolerance of numdiff:
#   /* flat-test: sizes 0 1 5 64 */   /* flat-test: tolerance 1e-4 */
#
# Exit status: 0 pass, 1 fail, 77 skip (a device was asked for but the
# runtime found none, and nothing failed), 99 hard error.

. "$(dirname "$0")/harness.sh"

[ $# -eq 1 ] || harness_error "usage: run-e2e.sh PROGRAM.c"
prog=$1
name=$(basename "$prog")
[ -r "$prog" ] || harness_error "cannot read $prog"
[ -n "${FLAT_GCC:-}" ] || [ -n "${FLAT_TEST_PREBUILT:-}" ] \
  || harness_error "FLAT_GCC is not set"
CC=${CC:-gcc}

sizes=$(harness_directive "$prog" 'flat-test: sizes')
[ -n "$sizes" ] || sizes=${FLAT_TEST_SIZES:-0 1 7 33 4099}
tolerance=$(harness_directive "$prog" 'flat-test: tolerance')
devices=${FLAT_TEST_DEVICES:-opencl host}
case $name in
  opt_*) levels="2 0 1 3" ;;
  *) levels="2 0" ;;
esac

harness_tmpdir
tmp=$HARNESS_TMP
bin=${FLAT_TEST_PREBUILT:-${FLAT_TEST_BUILD_DIR:-$tmp}}

# Show the last lines of FILE, indented, after a failure message.
show_tail ()
{
  if [ -s "$1" ]; then
    printf '  --- %s (last lines) ---\n' "$2" >&2
    tail -n 15 "$1" | sed 's/^/  | /' >&2
  fi
}

# Builds.
if [ -n "${FLAT_TEST_PREBUILT:-}" ]; then
  for exe in ref $(printf 'flat_O%s ' $levels); do
    [ -x "$bin/$exe" ] || harness_error "no prebuilt $bin/$exe"
  done
  levels_built=
else
  mkdir -p "$bin" || harness_error "cannot create $bin"
  levels_built=$levels
  if ! $CC -std=gnu11 -O2 -Wno-unknown-pragmas "$prog" -o "$bin/ref" -lm \
       2>"$tmp/ref.cc"; then
    show_tail "$tmp/ref.cc" "$CC stderr"
    harness_fail "$name: the reference build with $CC failed"
  fi
fi
for level in $levels_built; do
  # FLAT_TEST_LDFLAGS is empty or link flags: split on purpose.
  # shellcheck disable=SC2086
  $FLAT_GCC -std=gnu11 -O"$level" "$prog" -o "$bin/flat_O$level" -lm \
    ${FLAT_TEST_LDFLAGS:-} 2>"$tmp/flat_O$level.cc"
  status=$?
  if grep -q 'internal compiler error' "$tmp/flat_O$level.cc"; then
    show_tail "$tmp/flat_O$level.cc" "flat-gcc stderr"
    harness_fail "$name -O$level: internal compiler error"
  fi
  if grep -q 'flat:' "$tmp/flat_O$level.cc"; then
    grep 'flat:' "$tmp/flat_O$level.cc" | sed 's/^/  | /' >&2
    harness_fail "$name -O$level: flat-gcc reported a problem (not lifted?)"
  fi
  if [ $status -ne 0 ]; then
    show_tail "$tmp/flat_O$level.cc" "flat-gcc stderr"
    harness_fail "$name -O$level: the flat-gcc build failed (status $status)"
  fi
done

if [ -n "${FLAT_TEST_BUILD_DIR:-}" ]; then
  printf 'built: %s at -O%s in %s\n' "$name" \
    "$(echo $levels | sed 's/ /,/g')" "$bin"
  exit 0
fi

# Runs.
harness_numdiff
skipped=
skip_reason=
numdiff_flags=
[ -z "$tolerance" ] || numdiff_flags="-t $tolerance"
for size in $sizes; do
  ref_out=$tmp/ref.$size.out
  if ! harness_timed "$bin/ref" "$size" >"$ref_out" 2>"$tmp/ref.err"; then
    show_tail "$tmp/ref.err" "reference stderr"
    harness_fail "$name size $size: the reference program failed"
  fi
  for level in $levels; do
    for dev in $devices; do
      case " $skipped " in
	*" $dev "*) continue ;;
      esac
      what="$name -O$level size $size device $dev"
      out=$tmp/flat_O$level.$size.$dev.out
      err=$tmp/flat_O$level.$size.$dev.err
      harness_timed env FLAT_DEVICE="$dev" FLAT_LOG=1 \
	"$bin/flat_O$level" "$size" >"$out" 2>"$err"
      status=$?
      if [ $status -ne 0 ]; then
	show_tail "$err" "stderr"
	harness_fail "$what: the program failed (status $status)"
      fi
      # numdiff_flags is empty or two words: split on purpose.
      # shellcheck disable=SC2086
      if ! "$NUMDIFF" $numdiff_flags "$ref_out" "$out" >"$tmp/diff" 2>&1; then
	sed 's/^/  | /' "$tmp/diff" >&2
	harness_fail "$what: the output differs from the reference"
      fi
      # No such device: the host fallback ran (and was right); skip the
      # device from now on.
      if [ "$dev" != host ] \
	 && grep -i -q "^flat: warning:.*no $dev" "$err"; then
	skipped="$skipped $dev"
	skip_reason="$skip_reason
  $dev: $(grep -i -m 1 "^flat: warning:.*no $dev" "$err")"
	continue
      fi
      if [ "$dev" != host ] && [ "$size" -gt 0 ]; then
	if ! grep -q "^flat: run .* on $dev" "$err"; then
	  show_tail "$err" "stderr"
	  harness_fail "$what: no 'flat: run ... on $dev' line in the log"
	fi
	if grep -q ' on host' "$err"; then
	  grep ' on host' "$err" | sed 's/^/  | /' >&2
	  harness_fail "$what: a nest ran on the host"
	fi
      fi
    done
  done
done

if [ -n "$skipped" ]; then
  printf 'SKIP: %s: no device for%s:%s\n' "$name" "$skipped" "$skip_reason" >&2
  exit 77
fi
printf 'ok: %s at -O%s, sizes %s, devices %s\n' "$name" \
  "$(echo $levels | sed 's/ /,/g')" "$sizes" "$devices"
exit 0
