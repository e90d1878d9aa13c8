#!/bin/sh
# run-diag.sh FILE.c: one diagnostic test of Flat.
#
# FILE.c states what the plugin must report, in comments on the line the
# message belongs to (the regex is an extended regex, grep -E, matched
# against the message text after "error: " or "warning: "):
#
#   #pragma flat mapp   /* flat-error "unknown directive" */
#     printf ("%d\n", i);   /* flat-warning "side effects" */
#   #pragma omp for ordered   /* flat-note "not taken" */
#
# and, in its header, optional extra options and an optional run:
#
#   /* flat-options: -fplugin-arg-flat-strict */
#   /* flat-run: 7 */   (also link it, run it with argument 7 and compare
#                         its output with the plain $CC build's)
#
# The test compiles FILE.c with `$FLAT_GCC -std=gnu11 -O2 OPTIONS -c' and
# passes when every expected message is reported at its line with its
# kind, every error and every "flat:" warning was expected, no message
# of Flat names a GCC tree code or temporary, GCC did not crash, and the
# compiler failed if and only if an error was expected.
#
# Environment: FLAT_GCC (required), CC (gcc), FLAT_TEST_TIMEOUT (300
# seconds per run), NUMDIFF (else built from numdiff.c), TMPDIR.
# Exit status: 0 pass, 1 fail, 99 hard error.

. "$(dirname "$0")/harness.sh"

[ $# -eq 1 ] || harness_error "usage: run-diag.sh FILE.c"
src=$1
name=$(basename "$src")
[ -r "$src" ] || harness_error "cannot read $src"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
CC=${CC:-gcc}
options=$(harness_directive "$src" 'flat-options:')
run_arg=$(harness_directive "$src" 'flat-run:')

harness_tmpdir
tmp=$HARNESS_TMP

# Expectations, one per line: LINE<TAB>KIND<TAB>REGEX.
awk '{
  rest = $0
  while (match (rest, /flat-(error|warning|note) "[^"]*"/))
    {
      item = substr (rest, RSTART, RLENGTH)
      rest = substr (rest, RSTART + RLENGTH)
      kind = item ~ /^flat-error/ ? "error" \
	: item ~ /^flat-note/ ? "note" : "warning"
      sub (/^flat-(error|warning|note) "/, "", item)
      sub (/"$/, "", item)
      printf "%d\t%s\t%s\n", NR, kind, item
    }
}' "$src" >"$tmp/expected" || harness_error "cannot read the expectations"

# Compile, without colours or source excerpts in the messages.  OPTIONS
# is a list of words: split on purpose.
# shellcheck disable=SC2086
$FLAT_GCC -std=gnu11 -O2 -fdiagnostics-color=never \
  -fno-diagnostics-show-caret $options -c "$src" -o "$tmp/out.o" \
  2>"$tmp/stderr"
status=$?

show_stderr ()
{
  sed 's/^/  | /' "$tmp/stderr" >&2
}

if grep -q 'internal compiler error' "$tmp/stderr"; then
  show_stderr
  harness_fail "$name: internal compiler error"
fi

# Diagnostics of the compiler, one per line: LINE<TAB>KIND<TAB>MESSAGE.
# A diagnostic of another file (or of none, as "cc1: error: ...") gets
# line 0, which no expectation names.
awk -v file="$src" '{
  line = 0
  if (index ($0, file ":") == 1)
    {
      rest = substr ($0, length (file) + 2)
      if (match (rest, /^[0-9]+/))
	line = substr (rest, 1, RLENGTH) + 0
    }
  if (match ($0, /: (fatal error|error|warning|note): /))
    {
      kind = substr ($0, RSTART + 2, RLENGTH - 4)
      if (kind == "fatal error")
	kind = "error"
      printf "%d\t%s\t%s\n", line, kind, substr ($0, RSTART + RLENGTH)
    }
}' "$tmp/stderr" >"$tmp/reported"

# Messages at LINE of KIND.
messages_at ()
{
  awk -F '	' -v line="$1" -v kind="$2" \
    '$1 == line && $2 == kind { print $3 }' "$tmp/reported"
}

error_expected=no
while IFS='	' read -r line kind regex; do
  [ "$kind" = error ] && error_expected=yes
  if ! messages_at "$line" "$kind" | grep -E -q -- "$regex"; then
    show_stderr
    harness_fail "$name:$line: no $kind matching \"$regex\""
  fi
done <"$tmp/expected"

# No message of Flat names GCC's internals: tree codes ('indirect_ref',
# 'var_decl', 'target_expr', ...) or GCC's temporaries ('D.1234', '_1',
# 'SAVE_EXPR <n>').
if grep -E "flat:.*([a-z]_(expr|ref|decl|cst|type|stmt)\b|'(D\.[0-9]+|_[0-9]+)'|[A-Z]+_EXPR)" \
     "$tmp/reported" >"$tmp/internal"; then
  show_stderr
  harness_fail "$name: a message names a GCC tree code: $(head -n 1 "$tmp/internal")"
fi

while IFS='	' read -r line kind message; do
  case $kind:$message in
    error:* | warning:flat:* | note:flat:*not\ taken*) ;;
    *) continue ;;
  esac
  matched=no
  while IFS='	' read -r eline ekind regex; do
    if [ "$eline" = "$line" ] && [ "$ekind" = "$kind" ] \
       && printf '%s\n' "$message" | grep -E -q -- "$regex"; then
      matched=yes
      break
    fi
  done <"$tmp/expected"
  if [ $matched = no ]; then
    show_stderr
    harness_fail "$name:$line: unexpected $kind: $message"
  fi
done <"$tmp/reported"

if [ $error_expected = yes ] && [ $status -eq 0 ]; then
  harness_fail "$name: an error was expected but the compiler succeeded"
fi
if [ $error_expected = no ] && [ $status -ne 0 ]; then
  show_stderr
  harness_fail "$name: the compiler failed (status $status), no error expected"
fi

# The host fallback must compute what the plain build computes.
if [ -n "$run_arg" ]; then
  harness_numdiff
  if ! $CC -std=gnu11 -O2 -Wno-unknown-pragmas "$src" -o "$tmp/ref" -lm \
       2>"$tmp/ref.cc"; then
    sed 's/^/  | /' "$tmp/ref.cc" >&2
    harness_fail "$name: the reference build with $CC failed"
  fi
  # shellcheck disable=SC2086
  if ! $FLAT_GCC -std=gnu11 -O2 $options "$src" -o "$tmp/flat" -lm \
       2>"$tmp/flat.cc"; then
    sed 's/^/  | /' "$tmp/flat.cc" >&2
    harness_fail "$name: the flat-gcc build of the program failed"
  fi
  if ! harness_timed "$tmp/ref" "$run_arg" >"$tmp/ref.out" 2>"$tmp/ref.err"
  then
    harness_fail "$name: the reference program failed with argument $run_arg"
  fi
  if ! harness_timed env FLAT_LOG=1 "$tmp/flat" "$run_arg" \
       >"$tmp/flat.out" 2>"$tmp/flat.err"; then
    sed 's/^/  | /' "$tmp/flat.err" >&2
    harness_fail "$name: the flat-gcc program failed with argument $run_arg"
  fi
  if ! "$NUMDIFF" "$tmp/ref.out" "$tmp/flat.out" >"$tmp/diff" 2>&1; then
    sed 's/^/  | /' "$tmp/diff" >&2
    harness_fail "$name: run $run_arg: the output differs from the reference"
  fi
fi
exit 0
