#!/bin/sh
# run.sh: runs every variant of every benchmark on this machine and writes
# results.csv, results.md and results.gp beside itself.  It is copied into
# bench/out by bench/build.sh and runs from there, on the GPU machine:
#
#   bench/out/run.sh            the full suite (about 6 minutes on an H100)
#   bench/out/run.sh --quick    small sizes, to check a build (any machine)
#
# For each dataset it runs, each in a process of its own: BENCH-seq,
# BENCH-omp (all cores), BENCH-acc, BENCH-flat once per Flat device that
# works here (FLAT_DEVICE=cuda, opencl), and cublas_ref where cuBLAS has
# the operation (cub_ref for reduce and scan); then copybw once.  Every process gets a fresh, empty Flat
# kernel cache and CUDA_CACHE_DISABLE=1, so that each "first" time
# includes compiling the kernels, for Flat and OpenACC alike.
#
# Files written: results.csv (benchmark,variant,size,ms_median,ms_first),
# work.csv (bytes and flops of each dataset), profile.csv (Flat's kernel
# time from FLAT_PROFILE), failures.txt, machine.txt (with build.txt, which
# build.sh wrote), notes.txt, logs/
# (each process's stdout and stderr), then results.md and results.gp by
# report.py.
set -u

here=$(cd "$(dirname "$0")" && pwd)
cd "$here"

case ${1-} in
  --quick) quick=yes ;;
  "") quick=no ;;
  *) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac

# Benchmark and arguments; the matmul shapes follow Figure 2 of the
# incremental-flattening paper (2^24 multiply-adds as a dot product, a
# square and an outer product) plus tall and wide ones.  A last argument
# beyond the sizes is the number of timed calls (default 20), lowered
# where calls are long: reduce and scan on 2^26 floats, rowsums, and
# jacobi and pathfinder, whose calls without a data region take seconds.
# Reductions of 2^28 floats (reduce 268435456 3) would add about a
# minute, most of it filling and paging in 2 GiB of inputs per process.
if [ $quick = yes ]; then
  datasets="saxpy 100000
matvec 300 200
matvec_t 200 300
matmul 64 48 32
matmul 4 4 4096
stencil 200 300
reduce 100000
scan 100000
rowsums 300 200
jacobi 64 10
pathfinder 1000 10"
  copy_mib=16
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
reduce 1048576
reduce 67108864 5
scan 1048576
scan 8388608
scan 67108864 5
rowsums 8192 8192 10
jacobi 4096 100 1
pathfinder 1048576 100 5"
  copy_mib=1024
fi
limit=${BENCH_TIMEOUT_S:-120}	# per process

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
rm -rf logs
mkdir logs
: >raw.txt
: >profile.csv
: >failures.txt
: >notes.txt

# The first directory under the usual CUDA places that holds file $1.
find_lib ()
{
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
	   /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 /usr/lib64; do
    if [ -e "$d/$1" ]; then
      echo "$d"
      return 0
    fi
  done
  f=$(find /usr/local /opt /usr/lib -name "$1" 2>/dev/null | head -n 1)
  [ -n "$f" ] && dirname "$f"
}

# Libraries: ours (libflat, GCC's libgomp and nvptx plugin, the OpenCL
# loader) first, then this machine's cuBLAS and NVRTC.
ld=$here/lib
for l in libcublas.so.13 libnvrtc.so.13; do
  d=$(find_lib $l)
  if [ -n "$d" ]; then
    ld=$ld:$d
  else
    echo "$l not found on this machine" >>notes.txt
  fi
done
export LD_LIBRARY_PATH=$ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

# NVIDIA's OpenCL driver is often installed without its ICD file.
if [ -z "${OCL_ICD_VENDORS-}" ] \
   && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
  d=$(find_lib libnvidia-opencl.so.1)
  if [ -n "$d" ]; then
    mkdir "$tmp/icd"
    echo "$d/libnvidia-opencl.so.1" >"$tmp/icd/nvidia.icd"
    export OCL_ICD_VENDORS=$tmp/icd
  fi
fi

# OpenACC must not fall back to the host silently where there is a GPU.
if nvidia-smi -L >/dev/null 2>&1; then
  export ACC_DEVICE_TYPE=nvidia
else
  echo "no NVIDIA GPU: acc runs on the host; cublas, cub and copybw fail" \
       >>notes.txt
fi
export CUDA_CACHE_DISABLE=1
export BENCH_BUDGET_S=${BENCH_BUDGET_S:-2}

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
    why=$(grep -v '^flat: \|^ ' "logs/$name.err" | tail -n 1)
    [ $rc -eq 124 ] && why="timed out after $limit s"
    echo "ERROR,$name,exit status $rc: $why" >>failures.txt
  fi
  return $rc
}

# The Flat devices that really run here: FLAT_DEVICE=cuda falls back to
# another device with a warning when libflat has no CUDA backend or no
# driver loads.
flat_devices=
for dev in cuda opencl; do
  rm -rf "$tmp/cache"
  FLAT_DEVICE=$dev FLAT_LOG=1 FLAT_CACHE_DIR=$tmp/cache \
    bin/saxpy-flat 4096 1 >/dev/null 2>"logs/probe-$dev.err"
  ran=$(sed -n 's/^flat: run .* on \([a-z]*\): .*(\(.*\))$/\1 (\2)/p' \
	  "logs/probe-$dev.err" | head -n 1)
  if [ "${ran%% *}" = $dev ]; then
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
  [ -f build.txt ] && sed 's/^/build: /' build.txt
} >machine.txt

start=$(date +%s)
echo "$datasets" | while read -r b args; do
  tag="$b-$(echo $args | tr ' ' x)"
  echo "run.sh: $b $args"
  for v in seq omp acc; do
    [ -x "bin/$b-$v" ] && run_one "$tag-$v" "bin/$b-$v" $args
  done
  for dev in $flat_devices; do
    if run_one "$tag-flat-$dev" env FLAT_DEVICE=$dev FLAT_PROFILE=1 \
	 "bin/$b-flat" $args; then
      # The kernels' mean times, summed per benchmark, as FLAT_PROFILE
      # prints them: an unnamed nest (file:line) belongs to the program's
      # benchmark, a named one to the benchmark its name starts with
      # (name(sum), name(jacobi_ab)); the size is the one the program
      # printed.  Nests named after no benchmark (jacobi's border copies,
      # once per call) give lines that report.py never looks up.
      size=$(grep -v '^#' "logs/$tag-flat-$dev.out" | head -n 1 | cut -d, -f3)
      awk -v b="$b" -v v="flat-$dev" -v size="$size" '
	/^flat: profile/ { p = 1; next }
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
	"logs/$tag-flat-$dev.err" >>profile.csv
    fi
  done
  case $b in
    saxpy|matvec|matvec_t|matmul)
      [ -x bin/cublas_ref ] && run_one "$tag-cublas" bin/cublas_ref $b $args
      ;;
    rowsums)
      for s in rowsums colsums; do
	[ -x bin/cublas_ref ] \
	  && run_one "$tag-cublas-$s" bin/cublas_ref $s $args
      done
      ;;
    reduce|scan)
      [ -x bin/cub_ref ] && run_one "$tag-cub" bin/cub_ref $b $args
      ;;
  esac
done
[ -x bin/copybw ] && run_one copybw bin/copybw $copy_mib

{
  echo benchmark,variant,size,ms_median,ms_first
  grep -v '^#\|^FAIL,' raw.txt
} >results.csv
{
  echo benchmark,size,bytes_in,bytes_out,flop
  grep '^#work,' raw.txt | cut -d, -f2- | sort -u
} >work.csv
grep '^FAIL,' raw.txt >>failures.txt
echo "run.sh: benchmarks took $(($(date +%s) - start)) s"

python3 report.py . || exit 1
if command -v gnuplot >/dev/null; then
  gnuplot results.gp || echo "run.sh: gnuplot failed" >&2
fi
cat results.md
