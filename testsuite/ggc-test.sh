#!/bin/sh
# The plugin under a garbage collection at every opportunity (plugin/
# directives.cc, Note [Trees across collections]): each e2e program,
# compiled at -O2 with --param ggc-min-expand=0 --param ggc-min-heapsize=0,
# gives the very assembly, lifted IR, target IR, kernels and messages of
# a compile without them, and GCC does not crash.
#
# Compile-only, at one level: so collected, a compile takes about ten
# times as long, and this test already takes minutes.  A program whose
# assembly is the plain compile's is the one the e2e tests build and
# run.  -frandom-seed names -fopenmp's offload sections, which are
# otherwise named at random.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
harness_tmpdir
tmp=$HARNESS_TMP
collect="--param ggc-min-expand=0 --param ggc-min-heapsize=0"

n=0
for prog in "$HARNESS_DIR"/e2e/*.c; do
  name=$(basename "$prog")
  cflags=$(harness_directive "$prog" 'flat-test: cflags')
  for how in plain collected; do
    rm -rf "${tmp:?}/$how"
    mkdir "$tmp/$how" || harness_error "cannot create $tmp/$how"
    params=
    [ $how = plain ] || params=$collect
    # CFLAGS and PARAMS are lists of options: split on purpose.
    # shellcheck disable=SC2086
    "$FLAT_GCC" -std=gnu11 -O2 -frandom-seed=flat \
      -fdiagnostics-color=never $cflags $params -S "$prog" \
      -o "$tmp/$how/$name.s" -fplugin-arg-flat-dump=all \
      -fplugin-arg-flat-dump-dir="$tmp/$how" 2>"$tmp/$how/stderr"
    echo "status $?" >"$tmp/$how/status"
    # Not the command line, which -fopenmp's offload section records.
    if [ -f "$tmp/$how/$name.s" ]; then
      awk '/^\t\.section/ { opts = /offload_lto_\.opts/ } !opts' \
	"$tmp/$how/$name.s" >"$tmp/$how/asm" \
	&& mv "$tmp/$how/asm" "$tmp/$how/$name.s"
    fi
  done
  if grep -q 'internal compiler error' "$tmp/collected/stderr"; then
    sed 's/^/  | /' "$tmp/collected/stderr" >&2
    harness_fail "$name: internal compiler error under collections"
  fi
  diff -r "$tmp/plain" "$tmp/collected" >"$tmp/diff" 2>&1 \
    || { sed 's/^/  | /' "$tmp/diff" | head -n 40 >&2
	 harness_fail "$name: collections change what the plugin makes"; }
  n=$((n + 1))
done
echo "ggc-test: $n programs the same under collections"
