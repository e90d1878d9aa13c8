#!/bin/sh
# run.sh [FILE.c...]: check the minimised fuzz findings (default: all in
# this directory) with testsuite/run-e2e.sh; prints one line each, "ok"
# once the bug is fixed.  Environment: as testsuite/fuzz/run-fuzz.sh.
FUZZ_DIR=$(cd "$(dirname "$0")/.." && pwd) || exit 99
. "$FUZZ_DIR/fuzz-lib.sh"
fuzz_env
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flat-findings.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
cp "$FUZZ_TESTSUITE/e2e/e2e.h" "$FUZZ_TESTSUITE/e2e/fuzz_inputs.h" "$tmp/" \
  || exit 99
[ $# -gt 0 ] || set -- "$FUZZ_DIR"/findings/*.c
[ -e "$1" ] || { echo "no open findings"; exit 0; }
fails=0
for f in "$@"; do
  cp "$f" "$tmp/" || exit 99
  sh "$FUZZ_TESTSUITE/run-e2e.sh" "$tmp/$(basename "$f")" >"$tmp/out" 2>"$tmp/err"
  class=$(fuzz_classify $? "$tmp/err")
  [ "$class" = pass ] || fails=$((fails + 1))
  printf '%-28s %s\n' "$(basename "$f")" \
    "$([ "$class" = pass ] && echo ok || grep -m 1 '^FAIL' "$tmp/err" | cut -c 1-110)"
done
[ $fails -eq 0 ]
