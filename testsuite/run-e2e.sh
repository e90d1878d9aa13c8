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
# was not lifted) and must not crash GCC.
#
# Versions.  `flat-tune --versions` lists every version of every nest of
# a build and the FLAT_THRESHOLD_* settings that force it (saved beside
# the build as flat_O$L.versions).  Besides the runs above, with the
# thresholds as they come, the -O$L of the first level is run once per
# version on each device other than host: run v sets, for every nest k,
# the settings of its version min(v, count_k - 1), for v = 0 .. the
# largest count - 1.  These forced runs use three sizes only, to keep
# `make check` within minutes: 0 (if listed), the smallest size above 0
# and the largest (by default 0 1 4099: one item, and an odd size of
# several work-groups); they are skipped when no version needs a setting.
#
# The FLAT_LOG=1 lines "flat: run NEST on BACKEND: VERSION ..." are
# checked on every device other than host: each names a nest that
# flat-tune lists and, in a forced run, the version forced on it (its
# kernels, or "host version" on the host; "no kernel" when
# there is no work), or in the other runs one of the nest's versions.
# The host version also runs with FLAT_HOST_THREADS=1, 2 and 7 at every
# size, and its outputs must be byte for byte the same.
# A warning that a nest fell back to the host fails the test, and a run
# at a size above 0 must log some nest (a forced run: on the device, if
# some nest's version is not the host one).  In a program with data
# regions (it calls flat_data_begin) a nest forced to its host version
# may run any of its versions: inside a region the runtime keeps it on
# the device.
#
# Environment: FLAT_GCC (required to build), FLAT_TUNE (flat-tune beside
# $FLAT_GCC), CC (gcc), FLAT_TEST_SIZES ("0 1 7 33 4099"),
# FLAT_TEST_DEVICES ("opencl host"), FLAT_TEST_TIMEOUT (300 seconds per
# run), NUMDIFF (else built from numdiff.c), TMPDIR; FLAT_CACHE_DIR and
# the other FLAT_* variables reach the programs.
# Prebuilt programs, for a machine that cannot build them (gpu/run.sh):
#   FLAT_TEST_BUILD_DIR=DIR   only build, into DIR/ref and DIR/flat_O$L
#                             (and DIR/flat_O$L.versions), linked with
#                             $FLAT_TEST_LDFLAGS too
#   FLAT_TEST_PREBUILT=DIR    only run and compare the programs in DIR
# Header comments of PROGRAM.c override the sizes and the relative
# tolerance of numdiff, and add options to the Flat builds (not to the
# reference, which is always plain $CC):
#   /* flat-test: sizes 0 1 5 64 */   /* flat-test: tolerance 1e-4 */
#   /* flat-test: cflags -fopenmp -fplugin-arg-flat-openmp */
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
cflags=$(harness_directive "$prog" 'flat-test: cflags')
# OpenMP programs here have no target regions: no offloading, which GCC
# attempts whenever an offload compiler is installed (and which then
# needs that target's own assembler).
case " $cflags " in
  *" -fopenmp "*) cflags="$cflags -foffload=disable" ;;
esac
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
  for level in $levels; do
    [ -r "$bin/flat_O$level.versions" ] \
      || harness_error "no prebuilt $bin/flat_O$level.versions"
  done
  levels_built=
else
  FLAT_TUNE=${FLAT_TUNE:-$(dirname "$FLAT_GCC")/flat-tune}
  [ -x "$FLAT_TUNE" ] || harness_error "no flat-tune at $FLAT_TUNE"
  mkdir -p "$bin" || harness_error "cannot create $bin"
  levels_built=$levels
  if ! $CC -std=gnu11 -O2 -Wno-unknown-pragmas "$prog" -o "$bin/ref" -lm \
       2>"$tmp/ref.cc"; then
    show_tail "$tmp/ref.cc" "$CC stderr"
    harness_fail "$name: the reference build with $CC failed"
  fi
fi
for level in $levels_built; do
  # CFLAGS and FLAT_TEST_LDFLAGS are empty or options: split on purpose.
  # shellcheck disable=SC2086
  $FLAT_GCC -std=gnu11 -O"$level" $cflags "$prog" -o "$bin/flat_O$level" \
    -lm ${FLAT_TEST_LDFLAGS:-} 2>"$tmp/flat_O$level.cc"
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
  if ! "$FLAT_TUNE" --versions "$bin/flat_O$level" \
       >"$bin/flat_O$level.versions" 2>"$tmp/tune.err"; then
    show_tail "$tmp/tune.err" "flat-tune stderr"
    harness_fail "$name -O$level: flat-tune --versions failed"
  fi
done

if [ -n "${FLAT_TEST_BUILD_DIR:-}" ]; then
  printf 'built: %s at -O%s in %s\n' "$name" \
    "$(echo $levels | sed 's/ /,/g')" "$bin"
  exit 0
fi

# The versions file of level $1 as expectations "NEST TAB KERNELS", every
# version of every nest.
all_versions ()
{
  cut -f 1,3 "$bin/flat_O$1.versions"
}

# Forced run $2 of level $1: the lines of the versions file that it forces
# (version min($2, count - 1) of every nest).
forced_lines ()
{
  awk -F '\t' -v v="$2" '
    { count[$1]++; line[$1, $2] = $0 }
    END {
      for (n in count)
        print line[n, v < count[n] ? v : count[n] - 1]
    }' "$bin/flat_O$1.versions"
}

# Expectations "NEST TAB KERNELS" of forced run $2 of level $1.  In a
# program with data regions, a nest forced to its host version may run
# any version (see the top of this file).
forced_expect ()
{
  forced_lines "$1" "$2" | cut -f 1,3
  if [ "$regions" = yes ]; then
    forced_lines "$1" "$2" | awk -F '\t' '$3 == "host" { print $1 }' \
      | while read -r nest; do
	  awk -F '\t' -v n="$nest" '$1 == n { print $1 "\t" $3 }' \
	    "$bin/flat_O$1.versions"
	done
  fi
}

# check_log ERR EXPECT DEV NEED: the "flat: run" lines of the log ERR
# against EXPECT ("NEST TAB KERNELS" lines: a line of the log must match
# one of its nest's).  NEED: "run" (some nest ran), "device" (some nest
# ran on DEV) or "none".  Prints what is wrong, exit status 1 if anything.
check_log ()
{
  awk -v dev="$3" -v need="$4" '
    function bad(msg) { print "  " msg; failed = 1 }
    # Does a log line of BACKEND with first word W match KERNELS?
    function matches(kernels, backend, w,    want, got, i, k, n) {
      if (w == "no")
        return 1
      if (kernels == "host")
        return w == "host"
      if (kernels == "-" || backend != dev)
        return 0
      n = split(kernels, want, ",")
      for (i = 1; i <= n; i++)
        got[want[i]] = 1
      k = split(w, want, ",")
      for (i = 1; i <= k; i++)
        if (!(want[i] in got))
          return 0
      return k > 0
    }
    FNR == NR {
      split($0, f, "\t")
      expect[f[1]] = expect[f[1]] "\t" f[2]
      next
    }
    /^flat: run / {
      runs++
      nest = $3
      backend = $5
      sub(/:$/, "", backend)
      if (backend == dev)
        on_dev++
      if (!(nest in expect)) {
        bad("nest " nest " is not one that flat-tune lists: " $0)
        next
      }
      n = split(substr(expect[nest], 2), options, "\t")
      for (i = 1; i <= n; i++)
        if (matches(options[i], backend, $6))
          next
      wanted = substr(expect[nest], 2)
      gsub(/\t/, " or ", wanted)
      bad("expected " wanted ": " $0)
    }
    END {
      if (need != "none" && runs == 0)
        bad("no \"flat: run\" line in the log")
      else if (need == "device" && on_dev == 0)
        bad("no \"flat: run ... on " dev "\" line in the log")
      exit failed
    }' "$2" "$1"
}

# Runs.
harness_numdiff
skipped=
skip_reason=
numdiff_flags=
[ -z "$tolerance" ] || numdiff_flags="-t $tolerance"
first_level=${levels%% *}
regions=no
grep -q -a flat_data_begin "$bin/flat_O$first_level" && regions=yes

# run_flat WHAT LEVEL SIZE DEV EXPECT NEED [SETTING...]: run flat_O$LEVEL
# at SIZE on DEV with the threshold SETTINGS, compare with the reference
# output of SIZE and check the log (check_log EXPECT NEED, only off the
# host).  Returns 1 if DEV turned out missing (added to $skipped).
run_flat ()
{
  r_what=$1 r_level=$2 r_size=$3 r_dev=$4 r_expect=$5 r_need=$6
  shift 6
  out=$tmp/run.out
  err=$tmp/run.err
  harness_timed env "$@" FLAT_DEVICE="$r_dev" FLAT_LOG=1 \
    "$bin/flat_O$r_level" "$r_size" >"$out" 2>"$err"
  status=$?
  if [ $status -ne 0 ]; then
    show_tail "$err" "stderr"
    harness_fail "$r_what: the program failed (status $status)"
  fi
  # numdiff_flags is empty or two words: split on purpose.
  # shellcheck disable=SC2086
  if ! "$NUMDIFF" $numdiff_flags "$tmp/ref.$r_size.out" "$out" >"$tmp/diff" 2>&1
  then
    sed 's/^/  | /' "$tmp/diff" >&2
    harness_fail "$r_what: the output differs from the reference"
  fi
  [ "$r_dev" != host ] || return 0
  # No such device: the host fallback ran (and was right); skip the
  # device from now on.
  if grep -i -q "^flat: warning:.*no $r_dev" "$err"; then
    skipped="$skipped $r_dev"
    skip_reason="$skip_reason
  $r_dev: $(grep -i -m 1 "^flat: warning:.*no $r_dev" "$err")"
    return 1
  fi
  if grep -q '^flat: warning:.*\(running on the host\|ignoring FLAT_\)' "$err"
  then
    grep '^flat: warning:' "$err" | sed 's/^/  | /' >&2
    harness_fail "$r_what: a nest fell back to the host, or a bad setting"
  fi
  [ "$r_size" -gt 0 ] || r_need=none
  if ! check_log "$err" "$r_expect" "$r_dev" "$r_need" >"$tmp/check" 2>&1; then
    cat "$tmp/check" >&2
    show_tail "$err" "stderr"
    harness_fail "$r_what: the log does not show the expected versions"
  fi
  return 0
}

for size in $sizes; do
  if ! harness_timed "$bin/ref" "$size" >"$tmp/ref.$size.out" \
       2>"$tmp/ref.err"; then
    show_tail "$tmp/ref.err" "reference stderr"
    harness_fail "$name size $size: the reference program failed"
  fi
  for level in $levels; do
    all_versions "$level" >"$tmp/expect.all"
    for dev in $devices; do
      case " $skipped " in
	*" $dev "*) continue ;;
      esac
      run_flat "$name -O$level size $size device $dev" "$level" "$size" \
	"$dev" "$tmp/expect.all" run
    done
  done
done

# The parallel host version on 1, 2 and 7 threads: right at every size,
# and the same output on every width (reductions combine in a fixed
# order).  Built with -fopenmp, a program's OpenMP loops keep OpenMP's
# own construct as their host version, whose reductions combine in the
# order the threads finish: only right, then.
case " $devices " in
  *" host "*) host_widths="1 2 7" ;;
  *) host_widths= ;;
esac
same_bits=yes
case " $cflags " in
  *" -fopenmp "*) same_bits=no ;;
esac
for size in $sizes; do
  for threads in $host_widths; do
    run_flat "$name -O$first_level size $size host threads $threads" \
      "$first_level" "$size" host - run FLAT_HOST_THREADS="$threads"
    cp "$out" "$tmp/threads.$threads.out"
    [ $same_bits = no ] || cmp -s "$tmp/threads.1.out" "$tmp/threads.$threads.out" \
      || harness_fail "$name size $size: the output on $threads threads differs from the one on 1"
  done
done

# Forced versions: sizes 0 (if listed), the smallest above 0, the
# largest.
forced_sizes=
smallest=
for size in $sizes; do
  if [ "$size" -eq 0 ]; then
    forced_sizes=0
  elif [ -z "$smallest" ] || [ "$size" -lt "$smallest" ]; then
    smallest=$size
  fi
done
# sizes is a list of numbers: split on purpose.
# shellcheck disable=SC2086
largest=$(printf '%s\n' $sizes | sort -n | tail -n 1)
for size in $smallest $largest; do
  case " $forced_sizes " in
    *" $size "*) ;;
    *) forced_sizes="$forced_sizes $size" ;;
  esac
done
n_versions=$(cut -f 1 "$bin/flat_O$first_level.versions" | sort | uniq -c \
	       | awk '$1 > n { n = $1 } END { print n + 0 }')
forced=0
if cut -f 4 "$bin/flat_O$first_level.versions" | grep -q .; then
  v=0
  while [ $v -lt "$n_versions" ]; do
    forced_expect "$first_level" $v >"$tmp/expect.$v"
    settings=$(forced_lines "$first_level" $v | cut -f 4 | tr '\n' ' ')
    need=run
    forced_lines "$first_level" $v \
      | awk -F '\t' '$3 != "host" && $3 != "-" { found = 1 }
		     END { exit !found }' && need=device
    for size in $forced_sizes; do
      for dev in $devices; do
	case " $skipped host " in
	  *" $dev "*) continue ;;
	esac
	# settings is a list of NAME=VALUE words: split on purpose.
	# shellcheck disable=SC2086
	run_flat "$name -O$first_level size $size device $dev version $v" \
	  "$first_level" "$size" "$dev" "$tmp/expect.$v" "$need" $settings \
	  && forced=$((forced + 1))
      done
    done
    v=$((v + 1))
  done
fi

if [ -n "$skipped" ]; then
  printf 'SKIP: %s: no device for%s:%s\n' "$name" "$skipped" "$skip_reason" >&2
  exit 77
fi
printf 'ok: %s at -O%s, sizes %s, devices %s; %d version(s), %d forced runs\n' \
  "$name" "$(echo $levels | sed 's/ /,/g')" "$sizes" "$devices" \
  "$n_versions" "$forced"
exit 0
