#!/bin/sh
# build.sh [DIR]: prebuild here what gpu/run.sh needs to validate Flat on
# a GPU machine that cannot build it (another gcc, for which the plugin is
# not built; no CUnit, no PoCL).  Run it in a configured, built tree;
# DIR defaults to testsuite/gpu/bin, which the GPU machine gets as is:
#
#   DIR/e2e/NAME/ref, flat_O2, ...   each e2e program, built by run-e2e.sh
#                                    (FLAT_TEST_BUILD_DIR); rpath
#                                    $ORIGIN/../../lib
#   DIR/lib/libflat.so.N             the runtime (its soname)
#   DIR/lib/libcunit.so.1            for flat-unit
#   DIR/lib/libgomp.so.1             for the e2e programs built with
#                                    -fopenmp
#   DIR/lib/opencl/libOpenCL.so.1    an OpenCL ICD loader, for a machine
#                                    without one
#   DIR/multidev/NAME/ref, flat, versions   each program of nests over
#                                    several devices (run-multidev.sh)
#   DIR/tuned-side/ref, flat, flat-tune   the programs of
#                                    tuned-side-test.sh
#   DIR/numdiff, DIR/flat-unit
#   DIR/MANIFEST                     the e2e programs, one name a line
#   DIR/MULTIDEV                     the multidev programs, the same
#
# FLAT_GPU_BUILD_ONLY (an extended regular expression) builds only the
# programs whose names it matches, to check a change on the GPU quickly.
#
# Exit status: 0 built, 1 a build failed, 99 the tree is not built.

here=$(cd "$(dirname "$0")" && pwd) || exit 99
top=$(cd "$here/../.." && pwd) || exit 99
dir=${1:-$here/bin}

# die STATUS MESSAGE
die ()
{
  printf 'build.sh: %s\n' "$2" >&2
  exit "$1"
}

soname=$(readelf -d "$top/.libs/libflat.so" 2>/dev/null \
	   | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
[ -x "$top/flat-gcc" ] && [ -n "$soname" ] \
  || die 99 "build the tree first (./configure && make)"
make -C "$top" -s testsuite/numdiff testsuite/unit/flat-unit \
  || die 99 "cannot build numdiff and flat-unit"
# The program itself, not libtool's wrapper script where there is one.
unit=$top/testsuite/unit/flat-unit
[ "$(head -c 2 "$unit")" = "#!" ] && unit=$top/testsuite/unit/.libs/flat-unit

rm -rf "$dir" && mkdir -p "$dir/lib/opencl" "$dir/e2e" \
  || die 99 "cannot create $dir"
cp -L "$top/.libs/$soname" "$dir/lib/" \
  && cp "$top/testsuite/numdiff" "$unit" "$dir/" \
  || die 99 "cannot copy the runtime and the test programs"
# The libraries flat-unit needs that a GPU machine may lack.
for lib in libcunit.so.1 libOpenCL.so.1; do
  path=$(ldd "$unit" | sed -n "s|^[ 	]*$lib => \([^ ]*\) .*|\1|p")
  [ -n "$path" ] || die 99 "flat-unit does not use $lib"
  case $lib in
    libOpenCL*) cp -L "$path" "$dir/lib/opencl/" ;;
    *) cp -L "$path" "$dir/lib/" ;;
  esac || die 99 "cannot copy $path"
done

cc=$("$top/flat-config" --cc)
# OpenMP's runtime, for the programs built with -fopenmp.
gomp=$($cc -print-file-name=libgomp.so.1)
cp -L "$gomp" "$dir/lib/" || die 99 "cannot copy $gomp"
# only NAME: whether NAME is to be built.
only ()
{
  [ -z "${FLAT_GPU_BUILD_ONLY:-}" ] \
    || echo "$1" | grep -Eq -- "$FLAT_GPU_BUILD_ONLY"
}

for prog in "$top"/testsuite/e2e/*.c; do
  name=$(basename "$prog" .c)
  only "$name" || continue
  FLAT_GCC=$top/flat-gcc CC=$cc FLAT_TEST_BUILD_DIR=$dir/e2e/$name \
    FLAT_TEST_LDFLAGS="-L$dir/lib -Wl,-rpath,\$ORIGIN/../../lib" \
    sh "$top/testsuite/run-e2e.sh" "$prog" || die 1 "$name does not build"
  echo "$name" >> "$dir/MANIFEST" || die 99 "cannot write $dir/MANIFEST"
done
for prog in "$top"/testsuite/multidev/*.c; do
  name=$(basename "$prog" .c)
  only "$name" || continue
  FLAT_GCC=$top/flat-gcc CC=$cc FLAT_TEST_BUILD_DIR=$dir/multidev/$name \
    FLAT_TEST_LDFLAGS="-L$dir/lib -Wl,-rpath,\$ORIGIN/../../lib" \
    sh "$top/testsuite/run-multidev.sh" "$prog" \
    || die 1 "multidev/$name does not build"
  echo "$name" >> "$dir/MULTIDEV" || die 99 "cannot write $dir/MULTIDEV"
done
FLAT_GCC=$top/flat-gcc CC=$cc FLAT_TEST_BUILD_DIR=$dir/tuned-side \
  FLAT_TEST_LDFLAGS="-L$dir/lib -Wl,-rpath,\$ORIGIN/../lib" \
  sh "$top/testsuite/tuned-side-test.sh" \
  || die 1 "the programs of tuned-side-test.sh do not build"
touch "$dir/MANIFEST" "$dir/MULTIDEV" || die 99 "cannot write $dir"
echo "build.sh: $(wc -l < "$dir/MANIFEST") e2e programs," \
  "$(wc -l < "$dir/MULTIDEV") multidev programs, libflat and" \
  "flat-unit in $dir ($(du -sh "$dir" | cut -f1))"
