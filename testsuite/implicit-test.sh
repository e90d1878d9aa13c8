#!/bin/sh
# Implicit reductions (pass implicit) and their options, read from the
# versions flat-tune --list gives each nest:
#   - by default the exact operators are taken (implicit_exact_rows.c:
#     4 versions), floating-point sums and products are not
#     (implicit_float_rows.c: 2), and none of the loops of
#     implicit_not_taken.c is;
#   - -fplugin-arg-flat-reassociate and -ffast-math (GCC's
#     -fassociative-math) take the float sums and products, and only
#     the float sum of implicit_not_taken.c (whose branch_arms keeps
#     rule I5's partitioned version);
#   - -fplugin-arg-flat-implicit-reductions=no takes nothing, and a bad
#     value is an error naming the argument;
#   - verbose notes name the loop and its accumulators; dump=all shows
#     the reduce in the target IR, the policy in the lifted IR, and
#     flat-ir on that IR gives the same target IR.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
FLAT_TUNE=${FLAT_TUNE:-$(dirname "$FLAT_GCC")/flat-tune}
FLAT_IR=${FLAT_IR:-$(dirname "$FLAT_GCC")/flat-ir}
harness_tmpdir
tmp=$HARNESS_TMP
e2e=$HARNESS_DIR/e2e

# build NAME OUT FLAGS...: compile e2e/NAME.c into $tmp/OUT, notes in
# $tmp/OUT.err.
build ()
{
  src=$e2e/$1.c out=$tmp/$2
  shift 2
  "$FLAT_GCC" -std=gnu11 -O2 -I"$e2e" "$src" -o "$out" -lm \
    -fplugin-arg-flat-verbose "$@" 2> "$out.err" \
    || { cat "$out.err" >&2; harness_fail "cannot build $src $*"; }
}

# versions OUT NEST WANT: flat-tune --list says nest NEST of OUT has
# WANT versions.
versions ()
{
  "$FLAT_TUNE" --list "$tmp/$1" > "$tmp/list" \
    || harness_fail "flat-tune --list $1 failed"
  got=$(sed -n "s/^nest $2 at .*: \([0-9]*\) versions\$/\1/p" "$tmp/list")
  [ "$got" = "$3" ] \
    || { cat "$tmp/list" >&2; harness_fail "$1: nest $2 has '$got' versions, expected $3"; }
}

not_taken="reads stores breaks float_sum short_loop other_var int_float narrow_min
bool_xor"

build implicit_not_taken plain
for nest in $not_taken; do
  versions plain "$nest" 2
done
# Rule I5's partitioned version stays.
versions plain branch_arms 3
grep -q "this loop is a reduction" "$tmp/plain.err" \
  && { cat "$tmp/plain.err" >&2; harness_fail "a note for a loop not taken"; }

build implicit_not_taken reassoc -fplugin-arg-flat-reassociate
for nest in $not_taken; do
  case $nest in
    # e_top, e_middle, G9's segmented segred, the transposition tile.
    float_sum) versions reassoc "$nest" 5 ;;
    *) versions reassoc "$nest" 2 ;;
  esac
done

build implicit_exact_rows exact
versions exact sums 4
# Its rows walked per point: a transposition tile too (sums walks two
# arrays, whose tiles would not fit local memory together).
versions exact extremes 5
# Float min and max need the permission too (NaNs, zeros of both signs).
versions exact fextremes 2
build implicit_exact_rows exact_reassoc -fplugin-arg-flat-reassociate
versions exact_reassoc fextremes 5
grep -q "implicit_exact_rows.c:[0-9]*:[0-9]*: note: flat: this loop is a reduction, run as 'reduce(+: s) reduce(+: p) reduce(^: x) reduce(|: o) reduce(&: an)'" \
  "$tmp/exact.err" \
  || { cat "$tmp/exact.err" >&2; harness_fail "no note for the loop of sums"; }

build implicit_exact_rows off -fplugin-arg-flat-implicit-reductions=no
for nest in sums extremes fextremes; do
  versions off "$nest" 2
done

build implicit_float_rows float
versions float matvec 2
versions float extremes 2
build implicit_float_rows fast -ffast-math
# matvec reads x[j] at every row and walks a row of a per point: tile 1
# (rule_tiling.c) with a transposition tile; tile 4's rows of a would not
# fit local memory.
versions fast matvec 5
versions fast extremes 5
build implicit_float_rows float_off -fplugin-arg-flat-reassociate \
  -fplugin-arg-flat-implicit-reductions=no
versions float_off matvec 2

# The dumps: the reduce in the target IR; flat-ir agrees.
mkdir "$tmp/dump"
build implicit_float_rows dumped -fplugin-arg-flat-reassociate \
  -fplugin-arg-flat-dump=all -fplugin-arg-flat-dump-dir="$tmp/dump"
n=0
for ir in "$tmp"/dump/*.ir; do
  base=${ir%.ir}
  grep -q "^  implicit reassociate\$" "$ir" \
    || harness_fail "$(basename "$ir"): no 'implicit reassociate' line"
  grep -q "^      reduce j : i32 = 0:i32 .. cols step 1:i32 with" "$base.flat" \
    || { cat "$base.flat" >&2; harness_fail "$(basename "$base.flat"): no reduce"; }
  "$FLAT_IR" "$ir" > "$tmp/again.flat" || harness_fail "flat-ir failed"
  cmp -s "$base.flat" "$tmp/again.flat" \
    || { diff "$base.flat" "$tmp/again.flat" >&2; harness_fail "flat-ir differs from the plugin's target IR"; }
  n=$((n + 1))
done
[ "$n" -eq 2 ] || harness_fail "dump=all: expected 2 nests, got $n"

if "$FLAT_GCC" -c "$e2e/implicit_float_rows.c" -I"$e2e" -o "$tmp/x.o" \
     -fplugin-arg-flat-implicit-reductions=maybe 2> "$tmp/err"; then
  harness_fail "implicit-reductions=maybe was accepted"
fi
grep -q "implicit-reductions 'maybe'" "$tmp/err" \
  || { cat "$tmp/err" >&2; harness_fail "no error naming implicit-reductions"; }
echo "implicit-test: options and versions as expected"
