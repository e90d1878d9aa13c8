#!/bin/sh
# Contraction of a * b + c into fused multiply-adds in the kernels follows
# the host compilation: the lifted IR says `contract', the OpenCL source
# has FP_CONTRACT ON and the package gives NVRTC --fmad=true exactly
# where GCC itself may contract (-ffp-contract=fast given, or GNU C's
# default fast on a target with fma); GNU C on x86-64 without fma, ISO
# C, -ffp-contract=off and =on (which GCC treats as off) keep every
# rounding.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
harness_tmpdir
tmp=$HARNESS_TMP
src=$HARNESS_DIR/e2e/saxpy.c

# expect WANT FLAGS...: saxpy.c built with FLAGS contracts (WANT yes) or
# not (no), in its IR, its OpenCL source and its CUDA options.
expect ()
{
  want=$1
  shift
  rm -rf "$tmp/d" && mkdir "$tmp/d" || harness_error "cannot create $tmp/d"
  "$FLAT_GCC" -O2 "$@" -c "$src" -I"$HARNESS_DIR/e2e" -o "$tmp/saxpy.o" \
    -fplugin-arg-flat-dump=ir,kernels -fplugin-arg-flat-dump-dir="$tmp/d" \
    2> "$tmp/err" || { cat "$tmp/err" >&2; harness_fail "cannot build with $*"; }
  case $want in
    yes) header=1 pragma=ON fmad=true ;;
    *) header=0 pragma=OFF fmad=false ;;
  esac
  for ir in "$tmp"/d/*.ir; do
    got=$(grep -c '^  contract$' "$ir")
    [ "$got" = "$header" ] \
      || harness_fail "$*: $(basename "$ir") has $got 'contract' lines, expected $header"
    cl=${ir%.ir}.cl
    grep -q "^#pragma OPENCL FP_CONTRACT $pragma\$" "$cl" \
      || { head -3 "$cl" >&2; harness_fail "$*: no FP_CONTRACT $pragma in $(basename "$cl")"; }
  done
  grep -aq -- "--fmad=$fmad" "$tmp/saxpy.o" \
    || harness_fail "$*: the package's CUDA options are not --fmad=$fmad"
  if grep -aq -- "--fmad=$( [ $fmad = true ] && echo false || echo true)" \
       "$tmp/saxpy.o"; then
    harness_fail "$*: a package has the other --fmad"
  fi
}

expect yes -ffp-contract=fast
expect yes -std=c11 -ffp-contract=fast
expect no -ffp-contract=off
expect no -ffp-contract=on -mfma
expect no -std=c11 -mfma
case $(uname -m) in
  x86_64)
    expect no -std=gnu11
    expect yes -std=gnu11 -mfma
    expect no -std=gnu11 -mfma -ffp-contract=off
    ;;
esac
echo "ok: contraction follows -ffp-contract and the target's fma"
