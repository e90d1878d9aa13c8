#!/bin/sh
# reduce-case.sh PROG.c CLASS [OUT.c]: minimise a failing fuzz program.
#
# Greedy delta debugging on lines: a candidate (PROG.c less some lines)
# is kept when
#   - plain $CC compiles it, and the build with -fsanitize=address,
#     undefined runs cleanly at every size of its header (so the
#     program stays valid: no out-of-bounds index, no overflow), and
#   - testsuite/run-e2e.sh still fails on it with the same CLASS (see
#     run-fuzz.sh; for not-lifted, with the same reason, names aside).
# Steps: the sizes of the header (one size, the smallest that fails),
# whole nests (function and call), whole statements with blocks (loops,
# if, switch, with their pragmas), then chunks of 8, 4, 2 and 1 lines of
# the nest bodies, helper bodies and main's per-nest blocks.
# The result is written to OUT.c (default PROG.min.c) and printed.
# Environment: as run-fuzz.sh.

. "$(dirname "$0")/fuzz-lib.sh"

[ $# -ge 2 ] || { echo "usage: reduce-case.sh PROG.c CLASS [OUT.c]" >&2; exit 99; }
prog=$1
class=$2
out=${3:-${prog%.c}.min.c}
fuzz_env
tmp=$(mktemp -d "${TMPDIR:-/tmp}/flat-reduce.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
cp "$FUZZ_TESTSUITE/e2e/e2e.h" "$FUZZ_TESTSUITE/e2e/fuzz_inputs.h" "$tmp/" \
  || exit 99
cur=$tmp/cur.c
cand=$tmp/fuzz_case.c
cp "$prog" "$cur" || exit 99
tests=0

# The reason of a not-lifted warning with names and numbers masked.
reason ()
{
  grep -m 1 'not lifted\|flat:' "$1" | sed -e 's/.*flat: //' \
    -e "s/'[^']*'/N/g" -e 's/[0-9][0-9]*/0/g'
}

# Does $cand still fail with $class (and, for not-lifted, $want)?
check ()
{
  tests=$((tests + 1))
  fuzz_valid "$cand" "$tmp" || return 1
  sh "$FUZZ_TESTSUITE/run-e2e.sh" "$cand" >/dev/null 2>"$tmp/err"
  got=$(fuzz_classify $? "$tmp/err")
  [ "$got" = "$class" ] || return 1
  if [ "$class" = not-lifted ]; then
    [ "$(reason "$tmp/err")" = "$want" ] || return 1
  fi
  return 0
}

# try FILE: keep FILE as the current program if it still fails.
try ()
{
  cp "$1" "$cand"
  if check; then
    cp "$cand" "$cur"
    return 0
  fi
  return 1
}

cp "$cur" "$cand"
want=
sh "$FUZZ_TESTSUITE/run-e2e.sh" "$cand" >/dev/null 2>"$tmp/err"
got=$(fuzz_classify $? "$tmp/err")
[ "$class" != not-lifted ] || want=$(reason "$tmp/err")
if [ "$got" != "$class" ] || ! check; then
  echo "reduce-case: $prog does not fail with class $class (got $got)," \
    "or is not valid (its sanitizer build fails)" >&2
  exit 99
fi

# 1. Sizes: the smallest single size that still fails.
sizes=$(sed -n 's|.*/\* flat-test: sizes \(.*\) \*/.*|\1|p' "$cur" | sed -n 1p)
for n in $sizes; do
  sed "s|/\\* flat-test: sizes .* \\*/|/* flat-test: sizes $n */|" "$cur" \
    > "$tmp/try.c"
  try "$tmp/try.c" && break
done

# Lines of $cur that may go: numbered list on stdout.  Nest bodies
# (after the "(void) R" line), helper bodies but their return
# statements, and main's blocks.
deletable ()
{
  awk '
    /^nest[0-9]+ \(|^helper[0-9]+ \(|^row_sum \(/ { sig = 1; next }
    sig && /^{/ { sig = 0; fn = 1; next }
    sig { next }
    fn && /^}/ { fn = 0; next }
    fn && /\(void\) R;|^  return / { next }
    fn { print NR; next }
    /^main \(/ { inmain = 1 }
    inmain && /^  {$/ { blk = 1 }
    inmain && blk && /^    for \(/ { print NR "," NR + 1; skip = 1; next }
    skip { skip = 0; next }
    inmain && blk { print NR }
    inmain && /^  }$/ { blk = 0 }
  ' "$cur"
}

# 2. Whole nests: a function and the block that calls it.
k=0
while grep -q "^nest$k (" "$cur"; do
  awk -v k="$k" '
    { l[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++) {
        if (l[i] == "static void" && l[i + 1] ~ ("^nest" k " \\(")) {
          while (l[i] !~ /^}/)
            i++
          continue
        }
        if (l[i] ~ /^main \(/)
          inmain = 1
        if (inmain && l[i] == "  {") {
          j = i
          found = 0
          while (j < NR && l[j] != "  }") {
            if (l[j] ~ ("nest" k " \\("))
              found = 1
            j++
          }
          if (found) {
            i = j
            continue
          }
        }
        print l[i]
      }
    }' "$cur" > "$tmp/try2.c"
  try "$tmp/try2.c"
  k=$((k + 1))
done

# Statements with a block in the nest bodies, as line ranges "FIRST,LAST":
# a header (for, if, else, switch, a case label, with a #pragma flat line
# above it) and its braced block, or a bare block.
blocks ()
{
  awk '
    { l[NR] = $0 }
    END {
      for (i = 1; i <= NR; i++) {
        if (l[i] ~ /^nest[0-9]+ \(/)
          fn = 1
        else if (fn && l[i] ~ /^}/)
          fn = 0
        if (!fn || l[i] !~ /^ +[{]$/)
          continue
        depth = 0
        for (j = i; j <= NR; j++) {
          if (l[j] ~ /^ +[{]$/) depth++
          else if (l[j] ~ /^ +[}]$/ && --depth == 0) break
        }
        h = i
        if (l[i - 1] ~ /^ *(for|if|else|switch|while) ?\(?/)
          h = i - 1
        if (l[h - 1] ~ /^ *#pragma flat/)
          h = h - 1
        print h "," j
      }
    }' "$cur"
}

# 3. Whole statements with blocks, outermost first.
pos=1
while :; do
  blocks > "$tmp/blocks"
  total=$(wc -l < "$tmp/blocks")
  [ "$pos" -le "$total" ] || break
  range=$(sed -n "${pos}p" "$tmp/blocks")
  sed "${range}d" "$cur" > "$tmp/try.c"
  try "$tmp/try.c" || pos=$((pos + 1))
done

# 4. Chunks of lines, largest first.
for chunk in 8 4 2 1; do
  pos=1
  while :; do
    deletable > "$tmp/lines"
    total=$(wc -l < "$tmp/lines")
    [ "$pos" -le "$total" ] || break
    sel=$(sed -n "$pos,$((pos + chunk - 1))p" "$tmp/lines" | tr '\n' ' ')
    script=
    for l in $sel; do script="$script${l}d;"; done
    sed "$script" "$cur" > "$tmp/try.c"
    if ! try "$tmp/try.c"; then
      pos=$((pos + chunk))
    fi
  done
done

cp "$cur" "$out"
echo "reduce-case: $tests tests; $(wc -l < "$prog") -> $(wc -l < "$out") lines: $out" >&2
cat "$out"
