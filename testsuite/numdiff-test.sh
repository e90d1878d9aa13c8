#!/bin/sh
# numdiff-test.sh: checks numdiff, the oracle of every end-to-end test,
# on pairs of outputs whose verdict is known (a numdiff that accepted
# everything would make every run-e2e.sh test pass).
#
#   check 0 '0.30000001' '0.3'     files that agree: exit status 0
#   check 1 '3' '4'                files that differ: exit status 1
#
# Environment: NUMDIFF (else built from numdiff.c with $CC), TMPDIR.
# Exit status: 0 pass, 1 fail, 99 hard error.

. "$(dirname "$0")/harness.sh"

harness_tmpdir
harness_numdiff
tmp=$HARNESS_TMP
failures=0

# check STATUS TEXT1 TEXT2 [OPTION...]: numdiff OPTION... on files
# holding TEXT1 and TEXT2 (with printf %b escapes) must exit with STATUS.
check ()
{
  expected=$1
  printf '%b' "$2" >"$tmp/a" || harness_error "cannot write $tmp/a"
  printf '%b' "$3" >"$tmp/b" || harness_error "cannot write $tmp/b"
  shift 3
  "$NUMDIFF" "$@" "$tmp/a" "$tmp/b" >"$tmp/out" 2>&1
  got=$?
  if [ $got -ne "$expected" ]; then
    printf 'FAIL: numdiff [%s] on "%s" / "%s": status %d, expected %d\n' \
      "$*" "$(cat "$tmp/a")" "$(cat "$tmp/b")" $got "$expected" >&2
    sed 's/^/  | /' "$tmp/out" >&2
    failures=$((failures + 1))
  fi
}

# Integers compare exactly, even beyond double precision.
check 0 '1\n-2\n3\n' '1\n-2\n3\n'
check 1 '3\n' '4\n'
check 0 '18446744073709551615\n' '18446744073709551615\n'
check 1 '18446744073709551615\n' '18446744073709551614\n'
check 1 '9007199254740993\n' '9007199254740992\n'
check 0 '-0\n+7\n007\n' '0\n7\n7\n'
check 1 '-5\n' '5\n'
# Floating point: relative tolerance 1e-5, absolute 1e-6.
check 0 '0.30000001\n' '0.3\n'
check 0 '1e5\n' '100000\n'
check 0 '3\n' '2.99999994\n'
check 0 '123456.7\n' '123456.8\n'
check 1 '1.0\n' '1.001\n'
check 1 '1.0\n' '1.0001\n'
check 0 '1e-7\n' '-5e-7\n'
check 1 '0\n' '2e-6\n'
check 0 '-2.5e10\n' '-2.50001e10\n'
check 1 '2.5e10\n' '-2.5e10\n'
# Tolerances from the command line.
check 0 '1.0\n' '1.001\n' -t 1e-2
check 1 '1.0\n' '1.02\n' -t 1e-2
check 0 '0\n' '2e-6\n' -a 1e-5
check 1 '0\n' '2e-6\n' -a 1e-7 -t 0
# NaN equals NaN of either sign; an infinity only itself.
check 0 'nan\n' 'nan\n'
check 0 'nan\n' '-nan\n'
check 1 'nan\n' '1\n'
check 1 '0\n' 'nan\n'
check 0 'inf\n-inf\n' 'inf\n-inf\n'
check 1 'inf\n' '-inf\n'
check 1 'inf\n' '1.7976931348623157e308\n'
# Token structure: whitespace is free, counts and other text are not.
check 0 '1 2\n3\n' '1\n2   3'
check 1 '1 2\n' '1 2 3\n'
check 1 '1 2 3\n' '1 2\n'
check 1 '' '0\n'
check 0 '' '\n\n'
check 0 'abc 1\n' 'abc 1.0000001\n'
check 1 'abc\n' 'abd\n'
check 1 '0x10\n' '16.5\n'
# Usage and I/O errors.
check 2 '1\n' '1\n' -x 1
check 2 '1\n' '1\n' -t nonsense

# The report names the lines of the first difference.
printf '1\n2\n3 4\n5\n' >"$tmp/a"
printf '1 2\n3\n5\n5\n' >"$tmp/b"
"$NUMDIFF" "$tmp/a" "$tmp/b" >"$tmp/out" 2>&1
if ! grep -q "a:3: '4' differs from .*b:3: '5'" "$tmp/out"; then
  printf 'FAIL: numdiff does not report the first difference right:\n' >&2
  sed 's/^/  | /' "$tmp/out" >&2
  failures=$((failures + 1))
fi
if "$NUMDIFF" "$tmp/a" "$tmp/missing" >"$tmp/out" 2>&1 \
   || [ $? -ne 2 ]; then
  printf 'FAIL: numdiff on a missing file must exit with status 2\n' >&2
  failures=$((failures + 1))
fi

[ $failures -eq 0 ] || harness_fail "numdiff: $failures checks failed"
exit 0
