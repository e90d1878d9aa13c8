#!/bin/sh
# The CUDA that codegen emits compiles, checked without a GPU: every
# end-to-end program (e2e/*.c) is compiled by the plugin at -O0 and -O2
# with its kernels dumped, and nvrtc_check compiles each distinct dumped
# .cu file with NVRTC, as the CUDA backend would, for compute_90 and
# compute_70 (or NVRTC's oldest architecture, 75 since CUDA 13).
#
# Environment: FLAT_GCC (required); NVRTC_CHECK, the checker (default:
# nvrtc_check beside this script).  Exit status: 0 pass, 1 fail, 77 skip
# (no NVRTC here), 99 hard error.

. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
NVRTC_CHECK=${NVRTC_CHECK:-$HARNESS_DIR/nvrtc_check}
[ -x "$NVRTC_CHECK" ] || harness_error "no checker at $NVRTC_CHECK"
harness_tmpdir
tmp=$HARNESS_TMP

for prog in "$HARNESS_DIR"/e2e/*.c; do
  name=$(basename "$prog" .c)
  for level in 0 2; do
    dir=$tmp/O$level
    mkdir -p "$dir" || harness_error "cannot create $dir"
    if ! "$FLAT_GCC" -std=gnu11 -O$level -c "$prog" -o "$tmp/$name.o" \
	   -fplugin-arg-flat-dump=kernels -fplugin-arg-flat-dump-dir="$dir" \
	   2> "$tmp/$name.err"; then
      sed 's/^/  | /' "$tmp/$name.err" >&2
      harness_fail "$name -O$level: flat-gcc failed"
    fi
  done
done
# A loop that is not lifted has no kernels: the e2e tests report that.
ls "$tmp"/O*/*.cu > /dev/null 2>&1 || harness_fail "no CUDA kernels dumped"

# One copy of each distinct source.
mkdir "$tmp/distinct" || harness_error "cannot create $tmp/distinct"
for cu in "$tmp"/O*/*.cu; do
  sum=$(cksum < "$cu" | tr ' ' _)
  [ -e "$tmp/distinct/$sum.seen" ] && continue
  : > "$tmp/distinct/$sum.seen"
  cp "$cu" "$tmp/distinct/$(basename "$(dirname "$cu")").$(basename "$cu")" \
    || harness_error "cannot copy $cu"
done

"$NVRTC_CHECK" -a 90 -a 70 "$tmp"/distinct/*.cu
status=$?
case $status in
  0) echo "ok: the CUDA of every e2e program compiles with NVRTC" ;;
  77) exit 77 ;;
  1) harness_fail "NVRTC rejected generated CUDA (log above)" ;;
  *) harness_error "nvrtc_check failed (status $status)" ;;
esac
