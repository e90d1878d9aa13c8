#!/bin/sh
# run.sh (bench/versions-run.sh, copied by bench/versions.sh): times every
# code version of the version benchmarks on this machine, next to the
# default thresholds, the hand-picked thresholds (P.tuning, when there),
# strategy=moderate and strategy=full, GCC's OpenACC and the sequential
# build, and writes versions.csv and versions.md beside itself.
#
#   run.sh           matmul sweeps k = 24 and 20, lvc small/medium/large,
#                    spmv uniform and power-law at 2^20 rows x 16 and
#                    2^16 x 256 nonzeros, bfs at 2^20 vertices x 16,
#                    syrk 1200 x 1000 and 2600 x 2000, particles 2^22
#                    with 5, 50 and 0 % on the long path, branch_rows
#                    (points x % marked x row) 2^20 x 5 x 4096,
#                    2^16 x 5 x 65536 and 2^20 x 100 x 16, kmeans_dist
#                    (points x centres x dimensions) 2^20 x 16 x 32,
#                    2^18 x 256 x 64 and 65536 x 1024 x 32, nearest
#                    (queries x points) 65536 x 2^20 and 2^20 x 4096,
#                    matvec and
#                    matvec_t at 64 x 2^20, 2^20 x 64 and 8192 x 8192,
#                    columns (column- and row-major) at 8192 x 8192 and
#                    2^20 x 64
#   run.sh --quick   k = 12 and tiny lvc datasets, to check a build
#
# VERSIONS_PROGRAMS (default "matmul lvc spmv particles branch_rows syrk bfs nbody
# nbody_double kmeans_dist nearest matvec matvec_t columns") and
# VERSIONS_COLUMNS (default
# "seq acc versions default tuned autotuned moderate full") select what
# runs; rows are appended to versions.csv when VERSIONS_APPEND=1.
#
# autotuned: thresholds found by flat-tune's search (bin/flat-tune) on
# training datasets, then used on every dataset: matmul is trained on the
# k = 20 sweep (as the paper trains on k = 20 and applies to k = 25),
# lvc on its small and medium datasets.
#
# Every Flat run is FLAT_DEVICE=cuda (FLAT_BENCH_DEVICE overrides it) with
# a fresh kernel cache; a forced version is the env line flat-tune
# --versions printed for it (the host version is not timed: it is the
# sequential build's loop).
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
case ${1-} in
  --quick) quick=yes ;;
  "") quick=no ;;
  *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac
device=${FLAT_BENCH_DEVICE:-cuda}
limit=${BENCH_TIMEOUT_S:-120}

# matmul M N K with M = N = 2^n and K = 2^(k - 2n): 2^k multiply-adds.
sweep ()
{
  k=$1
  n=0
  while [ $((2 * n)) -le "$k" ]; do
    echo "matmul $((1 << n)) $((1 << n)) $((1 << (k - 2 * n))) 5"
    n=$((n + 1))
  done
}
if [ $quick = yes ]; then
  datasets="$(sweep 12)
lvc 2 4 8 16 2
spmv uniform 1000 8
spmv powerlaw 1000 8
bfs powerlaw 1000 8
syrk 100 80
particles 10000 5 100
branch_rows 10000 5 100
nbody 1000 3
nbody_double 1000 3
kmeans_dist 1001 17 33 3
kmeans_dist 301 67 20 3
nearest 1001 3001 3
nearest 4099 300 3
matvec 64 4099
matvec_t 4099 64
columns 301 203 cm
columns 301 203 rm"
  training="$(sweep 10)
lvc 2 4 8 16 1
spmv uniform 1000 8
matvec 64 4099
matvec_t 4099 64"
else
  datasets="$(sweep 24)
$(sweep 20)
lvc 16 256 32 256 3
lvc 128 64 256 32 3
lvc 256 64 256 256 2
spmv uniform 1048576 16
spmv powerlaw 1048576 16
spmv uniform 65536 256
spmv powerlaw 65536 256
bfs uniform 1048576 16
bfs powerlaw 1048576 16
syrk 1200 1000
syrk 2600 2000
particles 4194304 5 2000
particles 4194304 50 2000
particles 4194304 0 2000
branch_rows 1048576 5 4096
branch_rows 65536 5 65536
branch_rows 1048576 100 16
matmul 256 256 256 5
matmul 1024 1024 1024 5
matmul 2048 2048 2048 5
matmul 4096 4096 4096 3
nbody 4096 5
nbody 32768 5
nbody 131072 3
nbody_double 32768 3
kmeans_dist 1048576 16 32 10
kmeans_dist 262144 256 64 5
kmeans_dist 65536 1024 32 5
nearest 65536 1048576 3
nearest 1048576 4096 5
matvec 64 1048576 20
matvec 1048576 64 20
matvec 8192 8192 20
matvec_t 64 1048576 20
matvec_t 1048576 64 20
matvec_t 8192 8192 20
columns 8192 8192 cm 20
columns 8192 8192 rm 20
columns 1048576 64 cm 20
columns 1048576 64 rm 20"
  training="$(sweep 20)
lvc 16 256 32 256 1
lvc 128 64 256 32 1
spmv uniform 262144 16
spmv powerlaw 262144 16
particles 1048576 5 2000
matvec 64 262144 5
matvec 262144 64 5
matvec 4096 4096 5
matvec_t 64 262144 5
matvec_t 262144 64 5
matvec_t 4096 4096 5"
fi

export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export BENCH_BUDGET_S=${BENCH_BUDGET_S:-1}
export CUDA_CACHE_DISABLE=1
if nvidia-smi -L >/dev/null 2>&1; then
  export ACC_DEVICE_TYPE=nvidia
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
programs=${VERSIONS_PROGRAMS:-matmul lvc spmv particles branch_rows syrk bfs nbody \
  nbody_double kmeans_dist nearest matvec matvec_t columns}
columns=" ${VERSIONS_COLUMNS:-seq acc versions default tuned autotuned moderate full} "
mkdir -p logs
if [ "${VERSIONS_APPEND:-0}" != 1 ]; then
  rm -rf logs/*
  : >versions.csv
  : >failures.txt
fi

# wanted COLUMN: whether COLUMN is to be run.
wanted ()
{
  case $columns in
    *" $1 "*) return 0 ;;
    *) return 1 ;;
  esac
}

# run_one LABEL PROGRAM ARGS...: one process; its CSV line goes into
# versions.csv with the variant column replaced by LABEL.
run_one ()
{
  label=$1
  shift
  log=logs/$(echo "$label-$*" | tr ' /=' '___' | cut -c1-150)
  rm -rf "$tmp/cache"
  FLAT_CACHE_DIR=$tmp/cache FLAT_DEVICE=$device FLAT_LOG=1 \
    timeout "$limit" "$@" >"$log.out" 2>"$log.err"
  rc=$?
  grep -v '^#' "$log.out" | grep -v '^FAIL' \
    | awk -F, -v l="$label" 'NF >= 5 { $2 = l; print }' OFS=, >>versions.csv
  grep '^FAIL' "$log.out" >>failures.txt
  [ $rc -ne 0 ] && echo "ERROR,$label,$*,exit status $rc" >>failures.txt
  return 0
}

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
  echo "cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1), $(nproc) cores"
  [ -f build.txt ] && sed 's/^/build: /' build.txt
} >machine.txt

# The autotuned thresholds of each program, from its training datasets.
if wanted autotuned && [ -x bin/flat-tune ]; then
  for p in $programs; do
    echo "$training" | sed -n "s/^$p //p" >"train-$p.txt"
    echo "run.sh: flat-tune on $(wc -l <"train-$p.txt") datasets of $p"
    rm -rf "$tmp/cache"
    FLAT_CACHE_DIR=$tmp/cache FLAT_DEVICE=$device bin/flat-tune \
      --datasets "train-$p.txt" --timeout "$limit" -o "$p.auto.tuning" \
      -- "bin/$p-flat" >"logs/flat-tune-$p.out" 2>&1 \
      || echo "ERROR,flat-tune,$p,$(tail -n 1 "logs/flat-tune-$p.out")" \
	   >>failures.txt
  done
fi

echo "$datasets" | while read -r p args; do
  case " $programs " in
    *" $p "*) ;;
    *) continue ;;
  esac
  echo "run.sh: $p $args"
  wanted seq && run_one seq "bin/$p-seq" $args
  wanted acc && [ -x "bin/$p-acc" ] && run_one acc "bin/$p-acc" $args
  wanted versions \
    && while IFS='	' read -r nest index kernels env; do
      [ "$kernels" = host ] && continue
      run_one "v$index:$(echo "$kernels" | tr , +)" env $env "bin/$p-flat" \
	$args
    done <"versions-$p.txt"
  wanted default && run_one default "bin/$p-flat" $args
  wanted tuned && [ -f "$p.tuning" ] \
    && run_one tuned env FLAT_TUNING="$here/$p.tuning" "bin/$p-flat" $args
  wanted autotuned && [ -f "$p.auto.tuning" ] \
    && run_one autotuned env FLAT_TUNING="$here/$p.auto.tuning" \
      "bin/$p-flat" $args
  wanted moderate && run_one moderate "bin/$p-flat-moderate" $args
  wanted full && run_one full "bin/$p-flat-full" $args
done
python3 report.py >versions.md
cat versions.md
