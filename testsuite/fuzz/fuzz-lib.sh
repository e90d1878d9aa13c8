# Shell functions shared by run-fuzz.sh and reduce-case.sh (sourced, not
# run): the environment of testsuite/run-e2e.sh defaulted from the build
# tree, the generator, and the classification of a run-e2e.sh failure.

# FUZZ_DIR: testsuite/fuzz, the directory of the script (unless set).
FUZZ_DIR=${FUZZ_DIR:-$(cd "$(dirname "$0")" && pwd)} || exit 99
FUZZ_TESTSUITE=$(cd "$FUZZ_DIR/.." && pwd) || exit 99
FUZZ_TOP=$(cd "$FUZZ_TESTSUITE/.." && pwd) || exit 99

# FLAT_GCC, NUMDIFF, FLAT_CACHE_DIR, CC as Makefile.am's
# AM_TESTS_ENVIRONMENT sets them, where the environment does not.
fuzz_env ()
{
  : "${FLAT_GCC:=$FUZZ_TOP/flat-gcc}"
  : "${CC:=gcc}"
  : "${FLAT_CACHE_DIR:=$FUZZ_TESTSUITE/cache}"
  if [ -z "${NUMDIFF:-}" ] && [ -x "$FUZZ_TESTSUITE/numdiff" ]; then
    NUMDIFF=$FUZZ_TESTSUITE/numdiff
  fi
  export FLAT_GCC CC FLAT_CACHE_DIR
  [ -z "${NUMDIFF:-}" ] || export NUMDIFF
  [ -x "$FLAT_GCC" ] || { echo "fuzz: no flat-gcc at $FLAT_GCC (build first)" >&2; exit 99; }
}

# Set $FUZZ_GEN: a copy in $1 (a scratch directory, so that a rebuild
# during a long run does not disturb it) of $FLAT_FUZZ_GEN, else of the
# built generator, else one built there from the source.
fuzz_gen ()
{
  FUZZ_GEN=$1/flat-fuzz-gen
  if [ -n "${FLAT_FUZZ_GEN:-}" ]; then
    cp "$FLAT_FUZZ_GEN" "$FUZZ_GEN" || exit 99
  elif [ -x "$FUZZ_DIR/flat-fuzz-gen" ] \
       && [ ! "$FUZZ_DIR/flat-fuzz-gen.c" -nt "$FUZZ_DIR/flat-fuzz-gen" ]; then
    cp "$FUZZ_DIR/flat-fuzz-gen" "$FUZZ_GEN" || exit 99
  else
    ${CC:-gcc} -std=gnu11 -O2 "$FUZZ_DIR/flat-fuzz-gen.c" -o "$FUZZ_GEN" -lm \
      || { echo "fuzz: cannot build the generator" >&2; exit 99; }
  fi
}

# The class of a run-e2e.sh result: exit status $1, its stderr in $2.
# pass, skip, ice, not-lifted, build-fail, crash, timeout, wrong,
# fallback, log, tool, invalid (the reference itself failed: a generator
# bug), error.
fuzz_classify ()
{
  case $1 in
    0) echo pass; return ;;
    77) echo skip; return ;;
    99) echo error; return ;;
  esac
  if grep -q 'internal compiler error' "$2"; then echo ice
  elif grep -q 'flat-gcc reported a problem' "$2"; then echo not-lifted
  elif grep -q 'the flat-gcc build failed' "$2"; then echo build-fail
  elif grep -q 'the reference build\|the reference program failed' "$2"
  then echo invalid
  elif grep -q 'the program failed (status 1[23][0-9])' "$2"; then
    if grep -q 'the program failed (status 124)' "$2"; then echo timeout
    else echo crash; fi
  elif grep -q 'the program failed' "$2"; then echo crash
  elif grep -q 'the output differs' "$2"; then echo wrong
  elif grep -q 'fell back to the host' "$2"; then echo fallback
  elif grep -q 'expected versions' "$2"; then echo log
  elif grep -q 'flat-tune --versions failed' "$2"; then echo tool
  else echo error
  fi
}

# Is program $1 valid: does its build by $CC with the address and
# undefined-behaviour sanitizers run cleanly at every size of its header
# ($2: a scratch directory, where e2e.h is)?
fuzz_valid ()
{
  v_sizes=$(sed -n 's|.*/\* flat-test: sizes \(.*\) \*/.*|\1|p' "$1" | sed -n 1p)
  [ -n "$v_sizes" ] || v_sizes="0 1 7 33 4099"
  ${CC:-gcc} -std=gnu11 -O1 -w -I"$FUZZ_TESTSUITE/e2e" \
    -fsanitize=address,undefined,float-cast-overflow \
    -fno-sanitize-recover=all "$1" -o "$2/san" -lm 2>/dev/null || return 1
  for v_n in $v_sizes; do
    ASAN_OPTIONS=detect_leaks=0 "$2/san" "$v_n" >/dev/null 2>&1 || return 1
  done
  return 0
}
