#!/bin/sh
# libflat's interface: the shared library exports exactly the functions
# of runtime/libflat.sym, each declared in the installed headers flat.h
# or flat_host.h, and those headers declare no function it does not
# export.
. "$(dirname "$0")/harness.sh"
top=$(cd "$HARNESS_DIR/.." && pwd)
harness_tmpdir
tmp=$HARNESS_TMP
lib=$top/.libs/libflat.so
sym=$top/runtime/libflat.sym
[ -e "$lib" ] || harness_error "no $lib"
[ -f "$sym" ] || harness_error "no $sym"
nm -D --defined-only "$lib" | awk '{ print $NF }' | sort > "$tmp/exported" \
  || harness_error "nm failed on $lib"
sort "$sym" > "$tmp/api"
cmp -s "$tmp/api" "$tmp/exported" \
  || { diff "$tmp/api" "$tmp/exported" >&2
       harness_fail "libflat exports other symbols than runtime/libflat.sym"; }
# Functions the headers declare: "TYPE NAME (" at the start of a line.
sed -n 's/^[a-z][a-z ]*[ *]\(flat_[a-z_]*\) (.*/\1/p' \
  "$top/runtime/flat.h" "$top/runtime/flat_host.h" | sort -u > "$tmp/declared"
cmp -s "$tmp/api" "$tmp/declared" \
  || { diff "$tmp/api" "$tmp/declared" >&2
       harness_fail "flat.h and flat_host.h declare other functions than libflat exports"; }
echo "ok: libflat exports its $(wc -l < "$tmp/api") API functions and nothing else"
