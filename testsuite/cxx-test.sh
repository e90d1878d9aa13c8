#!/bin/sh
# C++ translation units (SPEC §1), built with the g++ of the gcc Flat was
# built for and `flat-config --cflags`, at -O0 and -O2:
#   cxx/loops.cpp  the plugin loads in cc1plus, warns exactly once, at the
#                  file's first `#pragma flat` (one in a system header
#                  comes before), also under strict; malformed and
#                  misplaced pragmas are no errors;
#   cxx/plain.cpp  no pragma, no diagnostic at all, even under -Wall;
#   cxx/openmp.cpp OpenMP loops under -fplugin-arg-flat-openmp, with and
#                  without -fopenmp: one warning, at the first loop;
# and for both the assembly, the preprocessed text and the output are
# those of plain g++.  Then a C file is still lifted.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
config=$(dirname "$FLAT_GCC")/flat-config
[ -x "$config" ] || harness_error "no $config"
harness_tmpdir
tmp=$HARNESS_TMP

# The g++ beside the plugin's gcc (gcc-12 -> g++-12); another version's
# would refuse the plugin.
cc=$("$config" --cc)
cxx=$(dirname "$cc")/$(basename "$cc" | sed 's/gcc\([^/]*\)$/g++\1/')
if ! [ -x "$cxx" ] \
   || [ "$("$cxx" -dumpfullversion)" != "$("$cc" -dumpfullversion)" ]; then
  echo "SKIP: no g++ of the same version as $cc" >&2
  exit 77
fi
cflags=$("$config" --cflags)
warning='warning: flat: C++ is not supported in this file: .*; #pragma flat is ignored'

# same WHAT FILE1 FILE2: the two files are equal.
same ()
{
  cmp -s "$2" "$3" || { diff "$2" "$3" | head -20 >&2; harness_fail "$1 differ"; }
}

# build NAME OPT [PLUGIN-ARG]: NAME.cpp built with plain g++ (ref) and
# with the plugin (flat), as programs, assembly and preprocessed text;
# the diagnostics of the program's build in $tmp/NAME.err.
build ()
{
  src=$HARNESS_DIR/cxx/$1.cpp
  sys=-isystem$HARNESS_DIR/cxx/system
  for mode in "" -S -E; do
    case $mode in -S) ext=.s ;; -E) ext=.ii ;; *) ext= ;; esac
    $cxx -Wall -Wno-unknown-pragmas "$sys" $2 $mode "$src" -o "$tmp/ref$ext" \
      || harness_error "$1 $2 $mode: plain g++ failed"
    # shellcheck disable=SC2086
    $cxx -Wall "$sys" $2 $cflags $3 $mode "$src" -o "$tmp/flat$ext" \
      2> "$tmp/$1$ext.err" \
      || { cat "$tmp/$1$ext.err" >&2; harness_fail "$1 $2 $3 $mode: build failed"; }
  done
  same "$1 $2 $3: assembly" "$tmp/ref.s" "$tmp/flat.s"
  same "$1 $2 $3: preprocessed text" "$tmp/ref.ii" "$tmp/flat.ii"
  "$tmp/ref" > "$tmp/ref.out" || harness_error "$1 $2: plain run failed"
  "$tmp/flat" > "$tmp/flat.out" || harness_fail "$1 $2 $3: run failed"
  same "$1 $2 $3: outputs" "$tmp/ref.out" "$tmp/flat.out"
}

first=$(grep -n -m 1 '^#pragma flat' "$HARNESS_DIR/cxx/loops.cpp" | cut -d: -f1)
for opt in -O0 -O2; do
  for arg in "" -fplugin-arg-flat-strict; do
    build loops $opt $arg
    err=$tmp/loops.err
    [ "$(grep -c "$warning" "$err")" -eq 1 ] \
      || { cat "$err" >&2; harness_fail "loops $opt $arg: expected one C++ warning"; }
    grep -q "^[^:]*/loops.cpp:$first:9: $warning" "$err" \
      || { cat "$err" >&2; harness_fail "loops $opt $arg: warning not at line $first"; }
    [ "$(grep -c -E '(warning|error):' "$err")" -eq 1 ] \
      || { cat "$err" >&2; harness_fail "loops $opt $arg: other diagnostics"; }
  done
  build plain $opt
  [ -s "$tmp/plain.err" ] \
    && { cat "$tmp/plain.err" >&2; harness_fail "plain $opt: diagnostics"; }
done

# OpenMP loops: with -fopenmp the warning stands at the first loop's
# `for', which is where g++ puts the construct; without, at the pragma.
omp_warning='warning: flat: C++ is not supported in this file: Flat takes OpenMP loops only from .*; they are compiled as without the plugin'
pragma=$(grep -n -m 1 '^#pragma omp' "$HARNESS_DIR/cxx/openmp.cpp" | cut -d: -f1)
for opt in -O0 -O2; do
  for omp in "-fopenmp" ""; do
    case $omp in
      -fopenmp) where=$((pragma + 1)):3 ;;
      *) where=$pragma:9 ;;
    esac
    build openmp "$opt $omp" -fplugin-arg-flat-openmp
    err=$tmp/openmp.err
    [ "$(grep -c -E '(warning|error):' "$err")" -eq 1 ] \
      && grep -q "^[^:]*/openmp.cpp:$where: $omp_warning" "$err" \
      || { cat "$err" >&2; harness_fail "openmp $opt $omp: expected one OpenMP warning at $where"; }
  done
done

# C is still lifted: saxpy.c's two maps.
"$FLAT_GCC" -std=gnu11 -O2 -fplugin-arg-flat-verbose -I"$HARNESS_DIR/e2e" \
  -c "$HARNESS_DIR/e2e/saxpy.c" -o "$tmp/saxpy.o" 2> "$tmp/c.err" \
  || { cat "$tmp/c.err" >&2; harness_fail "saxpy.c: build failed"; }
[ "$(grep -c "note: flat: lifted" "$tmp/c.err")" -eq 2 ] \
  || { cat "$tmp/c.err" >&2; harness_fail "saxpy.c: expected two lifted nests"; }
echo "ok: g++ loads the plugin, one warning per file (pragmas, OpenMP loops), code unchanged; C still lifted"
