#!/bin/sh
# The plugin's dump, verbose and backends arguments, and flat-ir on the
# dumped IR: the lifted IR that the plugin writes, run through flat-ir,
# gives the very target IR and kernels that the plugin embedded.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
FLAT_IR=${FLAT_IR:-$(dirname "$FLAT_GCC")/flat-ir}
harness_tmpdir
tmp=$HARNESS_TMP
src=$HARNESS_DIR/e2e/saxpy.c

"$FLAT_GCC" -std=gnu11 -O2 -c "$src" -I"$HARNESS_DIR/e2e" -o "$tmp/saxpy.o" \
  -fplugin-arg-flat-dump=all -fplugin-arg-flat-dump-dir="$tmp" \
  -fplugin-arg-flat-verbose 2> "$tmp/stderr" \
  || { cat "$tmp/stderr" >&2; harness_fail "compile with dump=all failed"; }
grep -q "note: flat: lifted 'saxpy.c:[0-9]*' as a map nest" "$tmp/stderr" \
  || { cat "$tmp/stderr" >&2; harness_fail "verbose: no 'lifted' note"; }
nests=$(grep -c "^#pragma flat map" "$src")
for ext in ir flat cl cu; do
  n=$(ls "$tmp"/saxpy.c.*."$ext" 2>/dev/null | wc -l)
  [ "$n" -eq "$nests" ] || harness_fail "dump=all: expected $nests .$ext files, got $n"
done
for ir in "$tmp"/saxpy.c.*.ir; do
  base=${ir%.ir}
  grep -q "__kernel void flat_k0" "$base.cl" || harness_fail "no OpenCL kernel"
  grep -q '__global__ void flat_k0' "$base.cu" || harness_fail "no CUDA kernel"
  # flat-ir reproduces what the plugin embedded.
  "$FLAT_IR" "$ir" > "$tmp/again.flat" || harness_fail "flat-ir failed"
  cmp -s "$base.flat" "$tmp/again.flat" \
    || { diff "$base.flat" "$tmp/again.flat" >&2; harness_fail "flat-ir differs from the plugin's target IR"; }
  "$FLAT_IR" --emit=opencl "$ir" > "$tmp/again.cl" || harness_fail "flat-ir --emit=opencl"
  cmp -s "$base.cl" "$tmp/again.cl" || harness_fail "flat-ir OpenCL differs"
done

# dump=ir alone writes only the IR; backends=opencl embeds no CUDA.
rm -f "$tmp"/saxpy.c.*
"$FLAT_GCC" -std=gnu11 -O2 -c "$src" -I"$HARNESS_DIR/e2e" -o "$tmp/saxpy.o" \
  -fplugin-arg-flat-dump=ir -fplugin-arg-flat-dump-dir="$tmp" \
  -fplugin-arg-flat-backends=opencl || harness_fail "dump=ir compile"
[ "$(ls "$tmp"/saxpy.c.* | wc -l)" -eq "$nests" ] && \
  [ "$(ls "$tmp"/saxpy.c.*.ir | wc -l)" -eq "$nests" ] \
  || harness_fail "dump=ir wrote something else than the IR"
grep -q "__global__" "$tmp/saxpy.o" && harness_fail "backends=opencl still embeds CUDA"
grep -q "__kernel" "$tmp/saxpy.o" || harness_fail "backends=opencl embeds no OpenCL"

# Bad arguments are errors naming the argument.
for arg in dump=bogus strategy=bogus backends=metal nosuchkey; do
  if "$FLAT_GCC" -c "$src" -I"$HARNESS_DIR/e2e" -o "$tmp/x.o" \
       "-fplugin-arg-flat-$arg" 2> "$tmp/err"; then
    harness_fail "-fplugin-arg-flat-$arg was accepted"
  fi
  grep -q "flat: " "$tmp/err" || harness_fail "-fplugin-arg-flat-$arg: no message"
done
echo "ok: dump, verbose, backends, flat-ir agree"
