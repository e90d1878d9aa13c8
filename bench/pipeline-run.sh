#!/bin/sh
# pipeline-run.sh: a map nest run whole and in pipelined slices (Note
# [Pipelined slices] in runtime/run_pipeline.c), with bin/pipeline-flat
# (bench/src/pipeline.c).  bench/build.sh copies it into bench/out
# beside run.sh; run it from there:
#
#   bench/out/pipeline-run.sh [--quick] [--out DIR]
#
# For each Flat device backend (FLAT_DEVICE=cuda, opencl;
# BENCH_FLAT_DEVICES names others) and each ITERS of the sweep, on
# N = 2^24 floats (64 MiB per array, 192 MiB moved per call), three
# processes:
#   never    FLAT_PIPELINE=never: the nest in one piece
#   always   FLAT_PIPELINE=always: in slices of 32 MiB moved or more (the
#            default threshold), 6 here
#   auto     the default: in one piece at the first call, then pipelined
#            if its kernels took half the time of its copies or more
# each printing the time per call with transfers (pipeline) and inside
# a data region (pipeline-resident: the kernels alone).  Writes into DIR
# (default pipeline-results beside this script): results.csv
# (benchmark,variant,size,ms_median,ms_first; variant flat-cuda-never
# ...), pipeline.md (a table), notes.txt (how each process's calls ran,
# from FLAT_LOG), logs/.  --quick: small sizes, to check a build on any
# machine.
# Environment: BENCH_BUDGET_S (default 2), BENCH_TIMEOUT_S (default 300).
set -u

here=$(cd "$(dirname "$0")" && pwd)
. "$here/device-env.sh"
bench_start pipeline "$@"
export BENCH_BUDGET_S=${BENCH_BUDGET_S:-2}
timeout_s=${BENCH_TIMEOUT_S:-300}
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi -L >>"$out/notes.txt" 2>&1
fi

if [ $quick = yes ]; then
  n=100000
  sweep="1 64"
  # Slices of 64 KiB: the quick sizes pipeline too.
  export FLAT_THRESHOLD_iterate_pipeline=64
else
  n=16777216
  sweep="1 64 256 1024 2048 4096"
fi

echo "benchmark,variant,size,ms_median,ms_first" >"$out/results.csv"
for backend in ${BENCH_FLAT_DEVICES:-cuda opencl}; do
  for iters in $sweep; do
    for how in never always auto; do
      log=$backend-$iters-$how
      cache=$(mktemp -d)
      env FLAT_CACHE_DIR="$cache" FLAT_DEVICE="$backend" FLAT_LOG=1 \
	FLAT_PIPELINE=$how timeout "$timeout_s" "$bin" $n "$iters" \
	>"$out/logs/$log.out" 2>"$out/logs/$log.err"
      status=$?
      rm -rf "$cache"
      [ $status -eq 0 ] || echo "$log: exit status $status" >>"$out/notes.txt"
      grep '^FAIL' "$out/logs/$log.out" >>"$out/notes.txt"
      grep '^flat: warning' "$out/logs/$log.err" | sort -u >>"$out/notes.txt"
      # The variant says how; the log, how many slices.
      grep -v '^[#F]' "$out/logs/$log.out" \
	| sed "s/^\([^,]*\),flat-$backend,/\1,flat-$backend-$how,/" \
	>>"$out/results.csv"
      grep -o 'pipelined in [0-9]* slices\|not pipelined[^)]*' \
	"$out/logs/$log.err" | sort | uniq -c \
	| sed "s/^/$log: /" >>"$out/notes.txt"
    done
  done
done

# pipeline.md: per backend and ITERS, the median ms per call in one
# piece, pipelined and by default, the speed-ups over one piece, and the
# kernels alone (resident).
awk -F, '
  NR > 1 {
    split($2, v, "-")
    key = v[2] SUBSEP $3
    t[$1, v[2], v[3], $3] = $4
    if (!(key in seen)) { seen[key] = 1; order[++n] = key }
  }
  function ratio(a, b) { return b > 0 ? sprintf("%.2f", a / b) : "-" }
  END {
    print "| backend | N x ITERS | one piece ms | pipelined ms | speed-up |" \
	  " default ms | speed-up | kernels alone ms |"
    print "| --- | --- | --- | --- | --- | --- | --- | --- |"
    for (i = 1; i <= n; i++) {
      split(order[i], k, SUBSEP)
      w = t["pipeline", k[1], "never", k[2]]
      p = t["pipeline", k[1], "always", k[2]]
      a = t["pipeline", k[1], "auto", k[2]]
      r = t["pipeline-resident", k[1], "never", k[2]]
      printf "| %s | %s | %s | %s | %s | %s | %s | %s |\n", k[1], k[2], w,
	     p, ratio(w, p), a, ratio(w, a), r
    }
  }' "$out/results.csv" >"$out/pipeline.md"
cat "$out/pipeline.md"
