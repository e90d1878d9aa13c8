#!/bin/sh
# ncu-kernels.sh [SKIP COUNT] -- COMMAND...: the mean duration of each
# kernel that COMMAND launches, by Nsight Compute, on the GPU machine
# (build.sh copies it into bench/out/).  The kernels run one at a time,
# the clocks and caches left as they are (--clock-control none
# --cache-control none); SKIP launches are left out first (warm-up and
# checks), then COUNT are timed (defaults 20 and 10).  One line a
# kernel name (its first 48 characters): launches timed and mean
# microseconds.  Set beside FLAT_PROFILE's table and a reference's
# `-dev` line (bench/results/device-time-h200.md), it is the third clock
# of a kernel-time comparison.
#
#   bench/out/ncu-kernels.sh 20 10 -- bench/out/bin/matmul-flat 1024 1024 1024 30
#   bench/out/ncu-kernels.sh -- bench/out/bin/cublas_ref matmul 1024 1024 1024 30
#
# The libraries come as for run.sh (device-env.sh).
set -u

skip=20 count=10
if [ "${1-}" != -- ] && [ $# -ge 2 ]; then
  skip=$1 count=$2
  shift 2
fi
[ "${1-}" = -- ] && shift
if [ $# -eq 0 ]; then
  echo "usage: $0 [SKIP COUNT] -- COMMAND..." >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -n 1)
if [ -z "$ncu" ]; then
  echo "$0: no ncu (Nsight Compute) on this machine" >&2
  exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/device-env.sh"
bench_device_env "$here" "$tmp" "$tmp/notes.txt"
"$ncu" --clock-control none --cache-control none \
       --metrics gpu__time_duration.sum --launch-skip "$skip" \
       --launch-count "$count" "$@" 2>&1 \
  | awk 'match ($0, / \([0-9]+, [0-9]+, [0-9]+\)x\(/) {
	   k = substr ($0, 1, RSTART - 1)
	   sub (/^ +/, "", k)
	   k = substr (k, 1, 48)
	 }
	 /gpu__time_duration/ && k != "" {
	   v = $NF
	   if ($(NF - 1) == "ms") v *= 1000
	   else if ($(NF - 1) == "ns") v /= 1000
	   t[k] += v; n[k]++
	 }
	 END { for (k in t) printf "%-48s %4d launches %10.2f us\n", k, n[k], t[k] / n[k] }'
