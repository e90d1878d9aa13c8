#!/bin/sh
# run.sh: runs every variant of every benchmark on this machine and writes
# results.csv, results.md and results.gp.  It is copied into bench/out by
# bench/build.sh and runs from there, on the GPU machine:
#
#   bench/out/run.sh                    the full suite (about 15 minutes on
#                                       an H100: run it in parts where a
#                                       command's time is limited)
#   bench/out/run.sh --part reductions  the reductions and scans only
#                                       (reduce, scan, histogram, rowsums)
#   bench/out/run.sh --part maps        the maps
#   bench/out/run.sh --part irregular   spmv (CSR rows, uniform and
#                                       power-law)
#   bench/out/run.sh --quick            small sizes, to check a build (any
#                                       machine; with --part too)
#
# --part takes a comma-separated list of parts and program names
# (--part reduce,scan); its results go to the folder part-LIST beside
# run.sh (part-reduce+scan), the full suite's beside run.sh itself, or
# with --out DIR into DIR.  report.py merges folders: report.py DIR
# OTHER_DIR...
#
# Environment: BENCH_BUDGET_S (seconds of timed calls per benchmark,
# default 2), BENCH_TIMEOUT_S (seconds per process, default 120),
# BENCH_DEADLINE_S (no dataset starts after this many seconds; default
# none), BENCH_ROUNDS (seq, omp and Flat's timed runs this many times
# per dataset, in turn; the report takes the median of their medians;
# default 1), BENCH_DATASETS (the datasets to run instead of the list below,
# one "PROGRAM ARGS..." per line), BENCH_FLAT_DEVICES (default "cuda opencl auto host": auto is
# Flat's default, host its parallel host version), BENCH_SHM_DIR (where
# large arrays live; default a new folder under /dev/shm, removed at the
# end; empty: ordinary memory).
#
# For each dataset it runs, each in a process of its own: BENCH-seq,
# BENCH-omp (all cores), BENCH-acc, BENCH-flat once per Flat device that
# works here (FLAT_DEVICE=cuda, opencl; $BENCH_FLAT_DEVICES, when set,
# names the ones to try), and cublas_ref where cuBLAS has the operation
# (cub_ref for reduce, scan and histogram); then copybw once, and
# transfer-flat on the CUDA and OpenCL devices at several sizes.  Every
# process gets a fresh, empty Flat kernel cache and CUDA_CACHE_DISABLE=1,
# so that each "first" time includes compiling the kernels, for Flat and
# OpenACC alike.  Flat's timed runs have neither FLAT_PROFILE nor
# FLAT_LOG (on CUDA a profiled launch waits for its events); a second,
# shorter run of each with FLAT_LOG=1 and FLAT_PROFILE=1 gives
# placement.csv, from the lines that say where each nest ran, and
# profile.csv, from the kernel times.
#
# Files written: results.csv (benchmark,variant,size,ms_median,ms_first),
# work.csv (bytes and flops of each dataset), profile.csv (Flat's kernel
# time from FLAT_PROFILE), placement.csv (benchmark,variant,size,
# device_runs,host_runs: how often Flat's nests ran on the device and on
# the host, from FLAT_LOG), transfer.csv (device,mib,h2d_gbps,d2h_gbps:
# Flat's own copies), failures.txt, machine.txt (with build.txt,
# which build.sh wrote), notes.txt, flat-warnings.txt (the plugin's
# warnings, from build.sh), logs/ (each process's stdout and stderr), then
# results.md and results.gp by report.py.
set -u

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

usage="usage: $0 [--quick] [--part PART[,PART...]] [--out DIR]"
quick=no
part=
out=
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=yes ;;
    --part|--out)
      [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }
      if [ "$1" = --part ]; then
	part=$2
      else
	out=$2
      fi
      shift
      ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
  shift
done

# The parts and the programs in each.
maps="saxpy matvec matvec_t matmul stencil jacobi pathfinder syrk"
reductions="reduce scan histogram rowsums"
irregular="spmv bfs"
programs=
for p in $(echo "$part" | tr ',' ' '); do
  case $p in
    maps) programs="$programs $maps" ;;
    reductions) programs="$programs $reductions" ;;
    irregular) programs="$programs $irregular" ;;
    *)
      case " $maps $reductions $irregular " in
	*" $p "*) programs="$programs $p" ;;
	*) echo "run.sh: no part or program '$p'" >&2; echo "$usage" >&2
	   exit 2 ;;
      esac
      ;;
  esac
done

# Benchmark and arguments; the matmul shapes follow Figure 2 of the
# incremental-flattening paper (2^24 multiply-adds as a dot product, a
# square and an outer product) plus tall and wide ones.  The reductions,
# the scan and the histogram (K = 256 and 65536 bins) run at 10^3 to 10^9
# elements, the row and column sums on square matrices of 10^3 to 10^9
# elements and on a few long rows and many short rows.  A last argument
# beyond the sizes is the number of timed calls (default 20), lowered
# where calls are long: jacobi and pathfinder, whose calls without a data
# region take seconds.  At 10^9 elements the time budget (BENCH_BUDGET_S)
# leaves a call or two.
if [ $quick = yes ]; then
  datasets="saxpy 100000
matvec 300 200
matvec_t 200 300
matmul 64 48 32
matmul 4 4 4096
stencil 200 300
reduce 1000
reduce 100000
scan 100000
histogram 100000 256
rowsums 300 200
jacobi 64 10
pathfinder 1000 10
syrk 100 80
spmv uniform 1000 8
spmv powerlaw 1000 8
bfs uniform 1000 8
bfs powerlaw 1000 8"
  copy_mib=16
  transfer_mib="1 16"
else
  datasets="saxpy 1048576
saxpy 67108864
matvec 8192 8192
matvec 1048576 64
matvec 64 1048576
matvec_t 8192 8192
matvec_t 1048576 64
matvec_t 64 1048576
matmul 256 256 256
matmul 1024 1024 1024
matmul 4 4 1048576
matmul 16 16 65536
matmul 1024 1024 16
matmul 4096 4096 1
matmul 1048576 16 16
matmul 16 1048576 16
stencil 4096 4096
stencil 8192 8192
reduce 1000
reduce 100000
reduce 10000000
reduce 1000000000
scan 1000
scan 100000
scan 10000000
scan 1000000000
histogram 1000 256
histogram 100000 256
histogram 10000000 256
histogram 1000000000 256
histogram 10000000 65536
histogram 1000000000 65536
rowsums 32 32
rowsums 316 316
rowsums 3162 3162
rowsums 100 100000
rowsums 1000000 10
rowsums 31623 31623
jacobi 4096 100 1
pathfinder 1048576 100 5
syrk 1200 1000
syrk 2600 2000
spmv uniform 1048576 16
spmv powerlaw 1048576 16
bfs uniform 1048576 16
bfs powerlaw 1048576 16"
  copy_mib=1024
  transfer_mib="1 4 16 64 256 1024"
fi
# BENCH_DATASETS, one "PROGRAM ARGS..." per line, replaces the list.
[ -n "${BENCH_DATASETS-}" ] && datasets=$BENCH_DATASETS
if [ -n "$programs" ]; then
  datasets=$(echo "$datasets" | while read -r b args; do
	       case " $programs " in
		 *" $b "*) echo "$b $args" ;;
	       esac
	     done)
  out=${out:-$here/part-$(echo "$part" | tr ',' '+')}
fi
out=${out:-$here}
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
limit=${BENCH_TIMEOUT_S:-120}	# per process

tmp=$(mktemp -d)
# Large arrays live in files under /dev/shm, shared from one process to
# the next (see bench_floats in src/harness.h); BENCH_SHM_DIR set empty
# turns that off.
shm=
if [ -z "${BENCH_SHM_DIR+set}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
  shm=$(mktemp -d /dev/shm/flat-bench.XXXXXX) && export BENCH_SHM_DIR=$shm
fi
trap 'rm -rf "$tmp" ${shm:+"$shm"}' EXIT
trap 'exit 2' HUP INT PIPE TERM
bin=$here/bin
cd "$out"
rm -rf logs
mkdir logs
: >raw.txt
: >profile.csv
: >placement.csv
: >failures.txt
: >notes.txt
if [ "$out" != "$here" ]; then
  cp "$here/flat-warnings.txt" . 2>/dev/null || : >flat-warnings.txt
fi

# Libraries: ours first, then this machine's cuBLAS, cuSPARSE and NVRTC;
# an ICD file for NVIDIA's OpenCL driver where it has none.
. "$here/device-env.sh"
bench_device_env "$here" "$tmp" notes.txt

# OpenACC must not fall back to the host silently where there is a GPU.
if nvidia-smi -L >/dev/null 2>&1; then
  export ACC_DEVICE_TYPE=nvidia
else
  echo "no NVIDIA GPU: acc runs on the host; cublas, cub and copybw fail" \
       >>notes.txt
fi
export CUDA_CACHE_DISABLE=1
export BENCH_BUDGET_S=${BENCH_BUDGET_S:-2}
rounds=${BENCH_ROUNDS:-1}
case $rounds in
  ''|*[!0-9]*|0) echo "run.sh: BENCH_ROUNDS=$rounds is not a count; 1" >&2
		 rounds=1 ;;
esac

# run_one NAME COMMAND...: runs COMMAND with a fresh kernel cache, keeps
# its output under logs/NAME, appends its stdout to raw.txt and notes a
# failure in failures.txt.
run_one ()
{
  name=$1
  shift
  rm -rf "$tmp/cache"
  FLAT_CACHE_DIR=$tmp/cache timeout "$limit" "$@" \
    >"logs/$name.out" 2>"logs/$name.err"
  rc=$?
  cat "logs/$name.out" >>raw.txt
  if [ $rc -ne 0 ]; then
    why=$(grep -v '^flat: \|^ \|^#' "logs/$name.err" | tail -n 1)
    [ $rc -eq 124 ] && why="timed out after $limit s"
    echo "ERROR,$name,exit status $rc: $why" >>failures.txt
  fi
  return $rc
}

# The Flat devices that really run here: FLAT_DEVICE=cuda falls back to
# another device with a warning when libflat has no CUDA backend or no
# driver loads.
flat_devices=
for dev in ${BENCH_FLAT_DEVICES:-cuda opencl auto host}; do
  rm -rf "$tmp/cache"
  FLAT_DEVICE=$dev FLAT_LOG=1 FLAT_CACHE_DIR=$tmp/cache \
    FLAT_DEFAULT_THRESHOLD=0 \
    "$bin/saxpy-flat" 4096 1 >/dev/null 2>"logs/probe-$dev.err"
  ran=$(sed -n 's/^flat: run .* on \([a-z]*\): .*(\(.*\))$/\1 (\2)/p' \
	  "logs/probe-$dev.err" | head -n 1)
  # auto and host run wherever they choose.
  if [ "${ran%% *}" = $dev ] || { [ $dev != cuda ] && [ $dev != opencl ] \
				    && [ -n "$ran" ]; }; then
    flat_devices="$flat_devices $dev"
    echo "flat-$dev ran on $ran" >>notes.txt
  else
    why=$(grep -m 1 'warning' "logs/probe-$dev.err")
    echo "flat-$dev not run: libflat ran on ${ran:-nothing}: $why" >>notes.txt
  fi
done

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,memory.total \
		 --format=csv,noheader 2>/dev/null || echo none)"
  echo "cpu: $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -n 1)," \
       "$(nproc) cores"
  echo "os: $(uname -sr)"
  [ -f "$here/build.txt" ] && sed 's/^/build: /' "$here/build.txt"
} >machine.txt

start=$(date +%s)
echo "$datasets" | while read -r b args; do
  if [ -n "${BENCH_DEADLINE_S-}" ] \
     && [ $(($(date +%s) - start)) -ge "$BENCH_DEADLINE_S" ]; then
    echo "skipped (BENCH_DEADLINE_S=$BENCH_DEADLINE_S): $b $args" \
      | tee -a notes.txt
    continue
  fi
  tag="$b-$(echo $args | tr ' ' x)"
  echo "run.sh: $b $args"
  for v in seq omp acc; do
    [ -x "$bin/$b-$v" ] && run_one "$tag-$v" "$bin/$b-$v" $args
  done
  for dev in $flat_devices; do
    run_one "$tag-flat-$dev" env FLAT_DEVICE=$dev "$bin/$b-flat" $args
    # Where the nests ran, per benchmark: the FLAT_LOG lines that follow
    # the harness's #timing line of each (a "host version" ran on the
    # host, below a threshold or after a device failure), and the
    # kernels' times, from a second, shorter run of the same program
    # with FLAT_LOG=1 and FLAT_PROFILE=1, since a logged line costs a
    # microsecond or two a call, as much as a nest of 2^16 floats takes
    # on the host, and a profiled launch on CUDA waits for its events.
    # A benchmark none of whose nests ran (a loop the plugin did not
    # lift) has 0 and 0.
    if FLAT_DEVICE=$dev FLAT_LOG=1 FLAT_PROFILE=1 BENCH_BUDGET_S=0.2 \
	 FLAT_CACHE_DIR=$tmp/cache timeout "$limit" "$bin/$b-flat" $args \
	 >"logs/$tag-flat-$dev.logged" 2>"logs/$tag-flat-$dev.log"; then
      # The kernels' mean times, summed per benchmark, as FLAT_PROFILE
      # prints them: an unnamed nest (file:line) belongs to the program's
      # benchmark, a named one to the benchmark its name starts with
      # (name(sum), name(jacobi_ab)); the size is the one the program
      # printed.  Nests named after no benchmark (jacobi's border copies,
      # once per call) give lines that report.py never looks up.
      size=$(grep -v '^#' "logs/$tag-flat-$dev.logged" | head -n 1 \
	       | cut -d, -f3)
      awk -v b="$b" -v v="flat-$dev" -v size="$size" '
	/^flat: profile/ { p = 1; next }
	/^flat: device or host/ { p = 0 }
	p && $3 ~ /^[0-9]+$/ {
	  if ($1 ~ /:/)
	    k = b
	  else
	    {
	      k = $1
	      sub(/_.*/, "", k)
	    }
	  ms[k] += $5
	}
	END { for (k in ms) printf "%s,%s,%s,%.4f\n", k, v, size, ms[k] }' \
	"logs/$tag-flat-$dev.log" >>profile.csv
    fi
    awk '
      /^#timing,/ {
	split ($0, f, ",")
	t = f[2] "," f[3] "," f[4]
	if (!(t in dev))
	  {
	    order[++n] = t
	    dev[t] = host[t] = 0
	  }
	next
      }
      /^flat: run / && t != "" {
	if ($0 ~ / on host: |: host version /)
	  host[t]++
	else if ($0 !~ /: no kernel /)
	  dev[t]++
      }
      END { for (i = 1; i <= n; i++)
	      printf "%s,%d,%d\n", order[i], dev[order[i]], host[order[i]] }' \
      "logs/$tag-flat-$dev.log" >>placement.csv
  done
  case $b in
    saxpy|matvec|matvec_t|matmul)
      [ -x "$bin/cublas_ref" ] \
	&& run_one "$tag-cublas" "$bin/cublas_ref" $b $args
      ;;
    rowsums)
      for s in rowsums colsums; do
	[ -x "$bin/cublas_ref" ] \
	  && run_one "$tag-cublas-$s" "$bin/cublas_ref" $s $args
      done
      ;;
    reduce|scan|histogram)
      [ -x "$bin/cub_ref" ] && run_one "$tag-cub" "$bin/cub_ref" $b $args
      ;;
    spmv)
      [ -x "$bin/cusparse_ref" ] \
	&& run_one "$tag-cusparse" "$bin/cusparse_ref" $b $args
      ;;
  esac
  # Rounds 2 to BENCH_ROUNDS: seq, omp and Flat's timed runs again, one
  # after the other, so that report.py's median of the rounds evens out
  # what differs from one process to the next (where the pages lie, the
  # clock): the same scan of 10^7 took 1.13 ms with OpenMP in one run
  # and 1.48 in another.
  r=2
  while [ "$r" -le "$rounds" ]; do
    for v in seq omp; do
      [ -x "$bin/$b-$v" ] && run_one "$tag-$v-r$r" "$bin/$b-$v" $args
    done
    for dev in $flat_devices; do
      run_one "$tag-flat-$dev-r$r" env FLAT_DEVICE=$dev "$bin/$b-flat" $args
    done
    r=$((r + 1))
  done
done
[ -x "$bin/copybw" ] && run_one copybw "$bin/copybw" $copy_mib
# Flat's own transfers on each device that moves data (transfer.csv).
echo device,mib,h2d_gbps,d2h_gbps >transfer.csv
for dev in $flat_devices; do
  case $dev in cuda|opencl) ;; *) continue ;; esac
  for mib in $transfer_mib; do
    if FLAT_DEVICE=$dev FLAT_CACHE_DIR=$tmp/cache "$bin/transfer-flat" \
	 $mib >"logs/transfer-$dev-$mib.out" 2>"logs/transfer-$dev-$mib.err"
    then
      sed -n "s/^transfer,/$dev,/p" "logs/transfer-$dev-$mib.out" \
	>>transfer.csv
    else
      echo "ERROR,transfer-$dev-$mib,wrong data or exit status $?" \
	>>failures.txt
    fi
  done
done

{
  echo benchmark,variant,size,ms_median,ms_first
  grep -v '^#\|^FAIL,' raw.txt
} >results.csv
{
  echo benchmark,size,bytes_in,bytes_out,flop
  grep '^#work,' raw.txt | cut -d, -f2- | sort -u
} >work.csv
grep '^FAIL,' raw.txt >>failures.txt
took=$(($(date +%s) - start))
echo "benchmarks took $took s" >>notes.txt
echo "run.sh: benchmarks took $took s"

python3 "$here/report.py" . || exit 1
if command -v gnuplot >/dev/null; then
  gnuplot results.gp || echo "run.sh: gnuplot failed" >&2
fi
cat results.md
