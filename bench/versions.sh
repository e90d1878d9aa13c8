#!/bin/sh
# bench/versions.sh: builds the benchmarks of incremental flattening's
# code versions into bench/out-versions/, a folder to copy to a
# GPU machine and run there with bench/out-versions/run.sh.
#
# Run it from the top of a built Flat tree:   bench/versions.sh
#
# Programs (bench/src/): matmul (the sweep of paper 000's Figure 2), lvc
# (LocVolCalib-like, the paper's Figure 6c and section 5.2), spmv and bfs
# (CSR rows, irregular nested parallelism: flatten/irregular.c), syrk (a
# triangle) and particles (a branch to a long loop on some points:
# flatten/rule_partition.c), branch_rows (a branch to an inner reduce on
# some points: the arms flattened, rule_partition.c too), nbody and nbody_double (all pairs, float and
# double: flatten/rule_tiling.c), kmeans_dist (k-means distances, a 2-D
# tiled nest) and nearest (nearest neighbour, a min over all points:
# rule_tiling.c too), matvec and matvec_t (inner loops that are
# reductions without a pragma: flatten/implicit_reductions.c), columns
# (column-major arrays under `for i { for j }': flatten/coalescing.c).
# VERSIONS_PROGRAMS (a list of names) builds only those.  Each is
# built as
#   P-seq            gcc -O3, pragmas ignored
#   P-acc            gcc -O3 -fopenacc for nvptx (skipped without it)
#   P-flat           flat-gcc -O3, strategy=incremental (all versions),
#                    and the options of bench/flat-flags.sh for all three
#   P-flat-moderate  strategy=moderate (one fixed version per nest)
#   P-flat-full      strategy=full (all parallelism at the grid level)
# and versions-P.txt lists P-flat's versions with the threshold settings
# that force each (flat-tune --versions), so that run.sh can time every
# version of every dataset without a compiler on the GPU machine, and
# profile.sh the kernels of each; flat-tune itself goes along for the
# autotuned column.
set -eu

if [ ! -x ./flat-gcc ] || [ ! -x ./flat-tune ]; then
  echo "bench/versions.sh: run me from the top of a built Flat tree" >&2
  exit 1
fi

src=bench/src
out=bench/out-versions
cc=$(./flat-config --cc)
cflags="-O3 -std=gnu11 -Wall -Wextra -Wno-unknown-pragmas"
accflags="-fopenacc -foffload=nvptx-none -foffload-options=-misa=sm_80 -no-pie"
programs=${VERSIONS_PROGRAMS:-matmul lvc spmv particles branch_rows syrk bfs nbody nbody_double kmeans_dist nearest matvec matvec_t columns}
. bench/flat-flags.sh

rm -rf "$out"
mkdir -p "$out/bin" "$out/lib" "$out/obj"
objs="$out/obj/harness.o $out/obj/reference.o $out/obj/csr.o"
$cc $cflags -c "$src/harness.c" -o "$out/obj/harness.o"
$cc $cflags -c "$src/reference.c" -o "$out/obj/reference.o"
$cc $cflags -c "$src/csr.c" -o "$out/obj/csr.o"

acc=yes
for p in $programs; do
  echo "bench/versions.sh: $p"
  # nbody_double is nbody.c in double.
  case $p in
    *_double) c="$src/${p%_double}.c -DNBODY_DOUBLE" ;;
    *) c=$src/$p.c ;;
  esac
  $cc $cflags -DBENCH_VARIANT='"seq"' $c $objs -o "$out/bin/$p-seq" -lm
  if [ $acc = yes ] \
     && ! $cc $cflags $accflags -DBENCH_VARIANT='"acc"' $c $objs \
	    -o "$out/bin/$p-acc" -lm 2>"$out/obj/acc.log"; then
    echo "bench/versions.sh: warning: no OpenACC offloading to nvptx;" \
	 "skipping the acc variant" >&2
    acc=no
  fi
  ./flat-gcc $cflags $(flat_flags "$p") -DBENCH_VARIANT='"flat"' $c $objs \
    -o "$out/bin/$p-flat" -lm
  for s in moderate full; do
    ./flat-gcc $cflags $(flat_flags "$p") -fplugin-arg-flat-strategy=$s \
      -DBENCH_VARIANT='"flat"' $c $objs -o "$out/bin/$p-flat-$s" -lm
  done
  ./flat-tune --versions "$out/bin/$p-flat" >"$out/versions-$p.txt"
  ./flat-tune --list "$out/bin/$p-flat" >"$out/tree-$p.txt"
done

libdir=$(./flat-config --libs | sed -n 's/.*-L\([^ ]*\).*/\1/p')
soname=$(readelf -d "$libdir/libflat.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
cp -L "$libdir/$soname" "$out/lib/"
if [ $acc = yes ]; then
  gomp=$($cc -print-file-name=libgomp.so.1)
  cp -L "$gomp" "$(dirname "$gomp")/libgomp-plugin-nvptx.so.1" "$out/lib/"
fi
{
  rev=$(git rev-parse --short HEAD 2>/dev/null || true)
  changed=$(git status --porcelain --untracked-files=no 2>/dev/null || true)
  echo "Flat $(./flat-config --version)${rev:+ at commit $rev}${changed:+" with uncommitted changes"}"
  $cc --version | head -n 1
} >"$out/build.txt"
cp flat-tune "$out/bin/"
cp bench/versions-run.sh "$out/run.sh"
cp bench/versions-report.py "$out/report.py"
cp bench/versions-profile.sh "$out/profile.sh"
cp bench/src/*.tuning "$out/" 2>/dev/null || true
rm -r "$out/obj"
echo "bench/versions.sh: built $out; run $out/run.sh on the GPU machine"
