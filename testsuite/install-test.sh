#!/bin/sh
# make install puts the plugin, libflat, <flat.h>, flat-config, flat-gcc
# and flat.pc where configure said, and the installed flat-config and
# flat.pc name the installed plugin.
. "$(dirname "$0")/harness.sh"
top=$(cd "$HARNESS_DIR/.." && pwd)
harness_tmpdir
dest=$HARNESS_TMP/root
${MAKE:-make} -s -C "$top" install DESTDIR="$dest" > "$HARNESS_TMP/log" 2>&1 \
  || { cat "$HARNESS_TMP/log" >&2; harness_fail "make install failed"; }
prefix=$(sed -n 's/^prefix=//p' "$top/flat.pc")
libdir=$(sed -n 's/^libdir=//p' "$top/flat.pc" | sed "s|\${exec_prefix}|$prefix|")
for f in "$libdir/flat/flat.so" "$libdir/libflat.so" "$prefix/include/flat.h" \
	 "$prefix/bin/flat-config" "$prefix/bin/flat-gcc" "$prefix/bin/flat-ir" \
	 "$prefix/bin/flat-tune" \
	 "$libdir/pkgconfig/flat.pc"; do
  [ -e "$dest$f" ] || harness_fail "not installed: $f"
done
cflags=$("$dest$prefix/bin/flat-config" --cflags)
case $cflags in
  *"-fplugin=$libdir/flat/flat.so"*) ;;
  *) harness_fail "installed flat-config --cflags says '$cflags'" ;;
esac
"$dest$prefix/bin/flat-config" --libs | grep -q -- "-lflat" \
  || harness_fail "installed flat-config --libs lacks -lflat"
[ "$("$dest$prefix/bin/flat-config" --version)" = "$("$top/flat-config" --version)" ] \
  || harness_fail "versions differ"
"$dest$prefix/bin/flat-config" --bogus 2>/dev/null && harness_fail "bad option accepted"
if command -v pkg-config > /dev/null; then
  pc=$(PKG_CONFIG_PATH="$dest$libdir/pkgconfig" pkg-config --cflags --libs flat)
  case $pc in
    *"-fplugin=$libdir/flat/flat.so"*"-lflat"*) ;;
    *) harness_fail "pkg-config flat says '$pc'" ;;
  esac
fi
echo "ok: installed under $prefix"
