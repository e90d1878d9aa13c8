# Shell functions shared by run-e2e.sh, run-diag.sh and numdiff-test.sh
# (sourced, not run): exit codes, the scratch directory, the numdiff
# binary, and the directives that test files carry in comments, e.g.
#
#   /* flat-test: sizes 0 1 5 64 */  in F, then
#   harness_directive F 'flat-test: sizes'  prints  0 1 5 64
#
# Exit codes follow automake's test protocol: 0 pass, 1 fail, 77 skip,
# 99 hard error (the harness itself cannot run).

HARNESS_DIR=$(cd "$(dirname "$0")" && pwd) || exit 99

harness_fail ()
{
  printf 'FAIL: %s\n' "$*" >&2
  exit 1
}

harness_error ()
{
  printf 'ERROR: %s\n' "$*" >&2
  exit 99
}

# Make $HARNESS_TMP, removed when the script exits.
harness_tmpdir ()
{
  HARNESS_TMP=$(mktemp -d "${TMPDIR:-/tmp}/flat-test.XXXXXX") \
    || harness_error "cannot create a temporary directory"
  trap 'rm -rf "$HARNESS_TMP"' EXIT
  trap 'exit 1' HUP INT TERM
}

# Make $HARNESS_TMP and build robust/nests.c, the program of the
# robustness tests, into it twice: ref with plain $CC, flat with $FLAT_GCC.
harness_nests ()
{
  [ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
  harness_tmpdir
  ${CC:-gcc} -std=gnu11 -O2 -pthread -Wno-unknown-pragmas \
    "$HARNESS_DIR/robust/nests.c" -o "$HARNESS_TMP/ref" \
    || harness_error "reference build failed"
  "$FLAT_GCC" -std=gnu11 -O2 -pthread "$HARNESS_DIR/robust/nests.c" \
    -o "$HARNESS_TMP/flat" || harness_fail "flat build failed"
}

# Set $NUMDIFF: the environment's, else numdiff.c built into the
# scratch directory with $CC.
harness_numdiff ()
{
  if [ -n "${NUMDIFF:-}" ]; then
    [ -x "$NUMDIFF" ] || harness_error "NUMDIFF=$NUMDIFF is not executable"
    return
  fi
  NUMDIFF=$HARNESS_TMP/numdiff
  ${CC:-gcc} -std=gnu11 -O2 "$HARNESS_DIR/numdiff.c" -o "$NUMDIFF" -lm \
    || harness_error "cannot build $HARNESS_DIR/numdiff.c"
}

# Print the value of the first `/* KEY VALUE */' comment of FILE, or
# nothing.  KEY may contain spaces ("flat-test: sizes").
harness_directive ()
{
  sed -n "s|.*/\\*[ 	]*$2[ 	]*\\(.*[^ 	]\\)[ 	]*\\*/.*|\\1|p" "$1" \
    | sed -n 1p
}

# Run COMMAND... with the time limit $FLAT_TEST_TIMEOUT (seconds,
# default 300) where timeout(1) exists.
harness_timed ()
{
  if command -v timeout >/dev/null 2>&1; then
    timeout "${FLAT_TEST_TIMEOUT:-300}" "$@"
  else
    "$@"
  fi
}
