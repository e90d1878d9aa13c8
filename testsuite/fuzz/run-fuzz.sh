#!/bin/sh
# run-fuzz.sh: differential fuzzing of Flat with generated programs.
#
#   run-fuzz.sh [--seeds A-B[,C[-D]...] | --count K --seed S] [--long]
#               [--int-index] [--branch-loops] [--tiles] [--columns]
#               [--keep DIR]
#
# For each seed (default: --count 10 --seed 1), testsuite/fuzz/flat-fuzz-gen
# writes one program in the style of testsuite/e2e, and
# testsuite/run-e2e.sh checks it (plain gcc against flat-gcc at -O2 and
# -O0, on opencl and host, every version forced).  Each failure is
# classified:
#
#   ice         an internal compiler error in flat-gcc
#   not-lifted  a "flat:" warning at compile time: a valid nest was not
#               lifted (a finding too, counted apart)
#   build-fail  flat-gcc failed otherwise
#   crash       the flat build crashed or exited non-zero (timeout: ran
#               past FLAT_TEST_TIMEOUT)
#   wrong       the output differs from the reference
#   fallback    a nest fell back to the host at run time
#   log         the FLAT_LOG lines do not show the forced versions
#   invalid     the reference itself failed, or the program is not valid
#               (its build with sanitizers fails at some size): a bug of
#               the generator
#
# Failing programs and their logs are kept in DIR (default
# ./fuzz-failures) as seed-N.c and seed-N.log.  --long generates larger
# programs (more nests, more sizes) and runs each with a work-group size
# of its own (FLAT_GROUP_SIZE 64, 128, 256 or the default, by seed, named
# in the log); --int-index only int loop indices
# (to look past the bugs of unsigned ones); --branch-loops puts loops in
# the then-arms of ifs, --tiles makes most map nests of the shape the
# tiling rules and implicit reductions take, --columns makes nests over
# column-major arrays (flat-fuzz-gen's options).  The environment of run-e2e.sh
# (FLAT_GCC, NUMDIFF, FLAT_CACHE_DIR, CC) defaults to the build tree's.
# FLAT_FUZZ_GEN names another generator binary.
#
# Output: one line per program, per-class counts, the constructs
# generated, and "N passed, M failed".  Exit status 0 when nothing
# failed, 1 otherwise, 99 on a hard error.

. "$(dirname "$0")/fuzz-lib.sh"

first=1
count=10
list=
long=
keep=./fuzz-failures
usage ()
{
  echo "usage: run-fuzz.sh [--seeds A-B,... | --count K --seed S] [--long] [--int-index] [--branch-loops] [--tiles] [--columns] [--keep DIR]" >&2
  exit 99
}
while [ $# -gt 0 ]; do
  case $1 in
    --seeds)
      [ $# -ge 2 ] || usage
      for r in $(echo "$2" | tr ',' ' '); do
	a=${r%-*}
	b=${r#*-}
	case $a$b in *[!0-9]*|'') usage ;; esac
	while [ "$a" -le "$b" ]; do
	  list="$list $a"
	  a=$((a + 1))
	done
      done
      shift 2 ;;
    --count) [ $# -ge 2 ] || usage; count=$2; shift 2 ;;
    --seed) [ $# -ge 2 ] || usage; first=$2; shift 2 ;;
    --long) long="$long --long"; shift ;;
    --int-index) long="$long --int-index"; shift ;;
    --branch-loops) long="$long --branch-loops"; shift ;;
    --tiles) long="$long --tiles"; shift ;;
    --columns) long="$long --columns"; shift ;;
    --keep) [ $# -ge 2 ] || usage; keep=$2; shift 2 ;;
    *) usage ;;
  esac
done
case $first$count in
  *[!0-9]*|'') usage ;;
esac
if [ -z "$list" ]; then
  a=$first
  while [ "$a" -lt $((first + count)) ]; do
    list="$list $a"
    a=$((a + 1))
  done
fi
count=$(echo $list | wc -w)

fuzz_env
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flat-fuzz.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
fuzz_gen "$tmp"
mkdir -p "$keep" || exit 99
# The programs include "e2e.h" and "fuzz_inputs.h" from their own
# directory.
cp "$FUZZ_TESTSUITE/e2e/e2e.h" "$FUZZ_TESTSUITE/e2e/fuzz_inputs.h" "$tmp/" \
  || exit 99

passed=0
failed=0
classes=
: > "$tmp/features"
for seed in $list; do
  prog=$tmp/fuzz_$seed.c
  if ! "$FUZZ_GEN" $long "$seed" > "$prog"; then
    echo "ERROR: the generator failed on seed $seed" >&2
    exit 99
  fi
  sed -n 's|.*flat-fuzz-features: \(.*\) \*/.*|\1|p' "$prog" \
    | tr ' ' '\n' >> "$tmp/features"
  start=$(date +%s)
  group=
  case $long in
    *--long*)
      case $((seed % 4)) in
	0) group=64 ;;
	1) group=128 ;;
	2) group=256 ;;
      esac ;;
  esac
  if [ -n "$group" ]; then
    FLAT_GROUP_SIZE=$group sh "$FUZZ_TESTSUITE/run-e2e.sh" "$prog" \
      > "$tmp/out" 2> "$tmp/err"
  else
    sh "$FUZZ_TESTSUITE/run-e2e.sh" "$prog" > "$tmp/out" 2> "$tmp/err"
  fi
  status=$?
  class=$(fuzz_classify $status "$tmp/err")
  # A failure of a program that is not valid C (a generator bug) is no
  # finding.
  case $class in
    pass|skip|invalid) ;;
    *) fuzz_valid "$prog" "$tmp" || class=invalid ;;
  esac
  secs=$(($(date +%s) - start))
  case $class in
    pass|skip)
      passed=$((passed + 1))
      printf 'seed %s: %s (%ss)\n' "$seed" "$class" "$secs" ;;
    *)
      failed=$((failed + 1))
      classes="$classes $class"
      cp "$prog" "$keep/seed-$seed.c"
      [ -f "$keep/e2e.h" ] || cp "$FUZZ_TESTSUITE/e2e/e2e.h" \
	"$FUZZ_TESTSUITE/e2e/fuzz_inputs.h" "$keep/"
      { echo "class: $class"
	[ -z "$group" ] || echo "FLAT_GROUP_SIZE=$group"
	cat "$tmp/err"; } > "$keep/seed-$seed.log"
      printf 'seed %s: FAIL %s (%ss): %s\n' "$seed" "$class" "$secs" \
	"$(grep -m 1 '^FAIL:\|^ERROR:' "$tmp/err" | cut -c 1-200)" ;;
  esac
done

echo "---- failures by class"
if [ -n "$classes" ]; then
  printf '%s\n' $classes | sort | uniq -c | sed 's/^ */  /'
else
  echo "  none"
fi
echo "---- constructs generated (programs: $count)"
awk -F= 'NF == 2 { n[$1] += $2 } END { for (k in n) printf "  %s=%d\n", k, n[k] }' \
  "$tmp/features" | sort | tr '\n' ' ' | fold -s -w 76
echo
[ $failed -eq 0 ] || echo "failing programs kept in $keep"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
