#!/bin/sh
# bench/build.sh: builds the side-by-side benchmarks into bench/out/, a
# folder that can be copied to a GPU machine and run there with
# bench/out/run.sh (see bench/README.md).
#
# Run it from the top of a built Flat tree:   bench/build.sh
#
# Each benchmark of bench/src/ is built four times from the same source:
#   BENCH-seq   gcc -O3, pragmas ignored
#   BENCH-omp   gcc -O3 -fopenmp
#   BENCH-acc   gcc -O3 -fopenacc, offloaded to nvptx (needs the package
#               gcc-N-offload-nvptx; skipped with a warning without it;
#               not built for scan, which OpenACC cannot express)
#   BENCH-flat  flat-gcc -O3 (and the options of bench/flat-flags.sh),
#               run later with FLAT_DEVICE=cuda or opencl
#               (the plugin's warnings, such as a loop it cannot lift yet,
#               are kept in flat-warnings.txt for the report)
# and transfer-flat (Flat's transfers, bench/src/transfer.c),
# pipeline-flat (a map run whole and pipelined, bench/src/pipeline.c) and
# multidev-flat (nests over several devices, bench/src/multidev.c), and the
# CUDA programs (cuBLAS and CUB references, copy bandwidth, the
# hand-written tiled kernels of nbody, kmeans_dist and nearest) are built with
# nvcc for sm_90 (skipped with a warning when nvcc is missing).  The
# libraries the GPU machine may lack are copied into bench/out/lib:
# libflat, GCC's libgomp and its nvptx plugin (the GPU machine's own
# libgomp belongs to another GCC), and the OpenCL ICD loader.
set -eu

if [ ! -x ./flat-gcc ] || [ ! -x ./flat-config ]; then
  echo "bench/build.sh: run me from the top of a built Flat tree" \
       "(./flat-gcc not found)" >&2
  exit 1
fi

src=bench/src
out=bench/out
. bench/flat-flags.sh
cc=$(./flat-config --cc)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
cflags="-O3 -std=gnu11 -Wall -Wextra -Wno-unknown-pragmas -pthread"
# -no-pie: GCC 12's offload table has relocations in read-only data that
# the linker would otherwise turn into text relocations in a PIE.
accflags="-fopenacc -foffload=nvptx-none -foffload-options=-misa=sm_80 -no-pie"
benchmarks="saxpy matvec matvec_t matmul stencil reduce scan histogram rowsums
jacobi pathfinder syrk spmv bfs startup kmeans"
# Benchmarks with no acc variant: OpenACC has no scan.
no_acc="scan"

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/obj"
: >"$out/flat-warnings.txt"
objs="$out/obj/harness.o $out/obj/reference.o $out/obj/csr.o"
$cc $cflags -c "$src/harness.c" -o "$out/obj/harness.o"
$cc $cflags -c "$src/reference.c" -o "$out/obj/reference.o"
$cc $cflags -c "$src/csr.c" -o "$out/obj/csr.o"

acc=yes
for b in $benchmarks; do
  echo "bench/build.sh: $b"
  $cc $cflags -DBENCH_VARIANT='"seq"' "$src/$b.c" $objs \
    -o "$out/bin/$b-seq" -lm
  $cc $cflags -fopenmp -DBENCH_VARIANT='"omp"' "$src/$b.c" $objs \
    -o "$out/bin/$b-omp" -lm
  case " $no_acc " in
    *" $b "*) b_acc=no ;;
    *) b_acc=$acc ;;
  esac
  if [ $b_acc = yes ] \
     && ! $cc $cflags $accflags -DBENCH_VARIANT='"acc"' "$src/$b.c" $objs \
	    -o "$out/bin/$b-acc" -lm 2>"$out/obj/acc.log"; then
    echo "bench/build.sh: warning: no OpenACC offloading to nvptx" \
	 "(install gcc-$($cc -dumpversion | cut -d. -f1)-offload-nvptx);" \
	 "skipping the acc variant:" >&2
    tail -n 3 "$out/obj/acc.log" >&2
    acc=no
  fi
  if ! ./flat-gcc $cflags $(flat_flags "$b") -DBENCH_VARIANT='"flat"' \
	 "$src/$b.c" $objs -o "$out/bin/$b-flat" -lm 2>"$out/obj/flat.log"
  then
    cat "$out/obj/flat.log" >&2
    exit 1
  fi
  cat "$out/obj/flat.log" >&2
  grep 'warning:' "$out/obj/flat.log" >>"$out/flat-warnings.txt" || true
done

# Flat's own transfers: a Flat program only (its pragmas are data
# regions and updates, which the other variants would ignore).
echo "bench/build.sh: transfer"
./flat-gcc $cflags "$src/transfer.c" -o "$out/bin/transfer-flat"

# A map run whole and pipelined: a Flat program only, run by
# pipeline-run.sh.
echo "bench/build.sh: pipeline"
./flat-gcc $cflags -DBENCH_VARIANT='"flat"' "$src/pipeline.c" $objs \
  -o "$out/bin/pipeline-flat" -lm

# Nests spread over several devices (FLAT_DEVICES): a Flat program only,
# run by multidev-run.sh.
echo "bench/build.sh: multidev"
./flat-gcc $cflags -DBENCH_VARIANT='"flat"' "$src/multidev.c" $objs \
  -o "$out/bin/multidev-flat" -lm

if [ -x "$nvcc" ]; then
  echo "bench/build.sh: cublas_ref cusparse_ref cub_ref copybw nbody_ref" \
       "kmeans_ref nearest_ref"
  nvflags="-O3 -arch=sm_90 -Xcompiler -Wall,-Wextra"
  # The resident variants timed by events (device_time.cu).
  $nvcc $nvflags -c "$src/device_time.cu" -o "$out/obj/device_time.o"
  objs="$objs $out/obj/device_time.o"
  $nvcc $nvflags "$src/cublas_ref.cu" $objs -o "$out/bin/cublas_ref" \
    -lcublas -lpthread
  $nvcc $nvflags "$src/cusparse_ref.cu" $objs -lm -o "$out/bin/cusparse_ref" \
    -lcusparse -lpthread
  $nvcc $nvflags "$src/cub_ref.cu" $objs -o "$out/bin/cub_ref" -lpthread
  $nvcc $nvflags "$src/copybw.cu" "$out/obj/harness.o" -o "$out/bin/copybw" \
    -lpthread
  # The hand-written kernels, with what they share (kernel_ref.cu).
  $nvcc $nvflags -c "$src/kernel_ref.cu" -o "$out/obj/kernel_ref.o"
  for r in nbody_ref kmeans_ref nearest_ref; do
    $nvcc $nvflags "$src/$r.cu" "$out/obj/kernel_ref.o" $objs \
      -o "$out/bin/$r" -lpthread
  done
else
  echo "bench/build.sh: warning: $nvcc not found; skipping the cuBLAS" \
       "and CUB references and the copy bandwidth program" >&2
fi

# Libraries to carry.  The binaries look for them through LD_LIBRARY_PATH,
# which run.sh sets, before their build-tree run path.
libdir=$(./flat-config --libs | sed -n 's/.*-L\([^ ]*\).*/\1/p')
soname=$(readelf -d "$libdir/libflat.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
cp -L "$libdir/$soname" "$out/lib/"
gomp=$(ldd "$out/bin/saxpy-omp" | awk '$1 == "libgomp.so.1" { print $3 }')
cp -L "$gomp" "$out/lib/"
if [ $acc = yes ]; then
  cp -L "$(dirname "$gomp")/libgomp-plugin-nvptx.so.1" "$out/lib/"
fi
opencl=$($cc -print-file-name=libOpenCL.so.1)
if [ -f "$opencl" ]; then
  cp -L "$opencl" "$out/lib/"
else
  echo "bench/build.sh: warning: no libOpenCL.so.1 here (ocl-icd-libopencl1);" \
       "flat-opencl will need the GPU machine's own" >&2
fi

# What was built, for the report.
{
  rev=$(git rev-parse --short HEAD 2>/dev/null || true)
  changed=$(git status --porcelain --untracked-files=no 2>/dev/null || true)
  echo "Flat $(./flat-config --version)${rev:+ at commit $rev}${changed:+" with uncommitted changes"}"
  $cc --version | head -n 1
  if [ -x "$nvcc" ]; then
    $nvcc --version | tail -n 1
  fi
} >"$out/build.txt"

cp bench/run.sh bench/report.py bench/multidev-run.sh bench/pipeline-run.sh \
  bench/ncu-kernels.sh \
  bench/device-env.sh "$out/"
rm -r "$out/obj"
echo "bench/build.sh: built $out ($(du -sh "$out" | cut -f1));" \
     "run $out/run.sh on the GPU machine"
