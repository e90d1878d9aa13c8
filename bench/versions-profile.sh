#!/bin/sh
# profile.sh (bench/versions-profile.sh, copied by bench/versions.sh):
# the kernel time of every code version of a version benchmark, from
# FLAT_PROFILE, where versions.csv has whole calls with transfers.
#
#   profile.sh PROGRAM ARGS...    e.g. profile.sh spmv powerlaw 1048576 16
#
# Runs bin/PROGRAM-flat once per device version of versions-PROGRAM.txt
# (the env line flat-tune --versions printed for it) and once with the
# default thresholds, FLAT_DEVICE=cuda (FLAT_BENCH_DEVICE overrides it)
# and FLAT_PROFILE=1, and prints a line per run: the version, the nest's
# executions, each kernel function's time per execution (all its
# launches) and their sum, the time of one call's kernels (ms).  The
# first execution is timed too, but with BENCH_BUDGET_S (default 1) the
# program makes enough calls that it weighs little.  For programs of one
# nest.  PROFILE_KERNELS (a list such as "k6 k7") profiles only the
# versions of those kernels, and the default.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
[ $# -ge 1 ] || { echo "usage: $0 PROGRAM ARGS..." >&2; exit 2; }
p=$1
shift
[ -x "bin/$p-flat" ] && [ -f "versions-$p.txt" ] \
  || { echo "profile.sh: no bin/$p-flat or versions-$p.txt" >&2; exit 2; }
device=${FLAT_BENCH_DEVICE:-cuda}
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export BENCH_BUDGET_S=${BENCH_BUDGET_S:-1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# profile LABEL ENV...: one run, its kernels' mean times and their sum.
profile ()
{
  label=$1
  shift
  rm -rf "$tmp/cache"
  env "$@" FLAT_CACHE_DIR="$tmp/cache" FLAT_DEVICE="$device" \
    FLAT_PROFILE=1 FLAT_LOG=1 "bin/$p-flat" $args >"$tmp/out" 2>"$tmp/err"
  grep '^FAIL' "$tmp/out"
  awk -v l="$label" -v a="$p $args" '
    /^flat: run / { runs++ }
    /^flat: profile/ { on = 1; getline; next }
    /^flat: device or host/ { on = 0 }
    # The kernels of pipelined runs are rows of the nest "NAME (pipelined)":
    # fields counted from the right, added to the same kernel of other rows.
    on && NF >= 5 && $(NF - 2) > 0 {
      k = $(NF - 3)
      if (!(k in ms))
	name[++n] = k
      ms[k] += $(NF - 1)
    }
    END {
      line = ""
      for (i = 1; i <= n; i++)
	{
	  line = line sprintf (" %s=%.3f", name[i], ms[name[i]] / runs)
	  sum += ms[name[i]] / runs
	}
      printf "%s | %s | %d calls |%s | %.3f\n", a, l, runs, line, sum
    }' "$tmp/err"
}

args=$*
while IFS='	' read -r nest index kernels env; do
  [ "$kernels" = host ] && continue
  case " ${PROFILE_KERNELS:-$kernels} " in
    *" $kernels "*) ;;
    *) continue ;;
  esac
  # shellcheck disable=SC2086
  profile "v$index:$kernels" $env
done <"versions-$p.txt"
profile default
