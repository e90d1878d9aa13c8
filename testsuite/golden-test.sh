#!/bin/sh
# Golden tests of the flattening rules: for each testsuite/golden/RULE-CASE.ir
# (lifted SOAC IR, named after the rule it exercises: g0 ... g9, i1, i4,
# i5 and i6 (the irregular rules of flatten/irregular.c, I2 and I3 within
# G3's versions; i4 a helper's marked loop inlined as parsed; i5
# branches by partition, flatten/rule_partition.c; i6 an irregular
# inner map; t1 and t2 block and register tiling, flatten/rule_tiling.c,
# which fire together; implicit the rule IMPLICIT-REDUCE of pass
# implicit, an unmarked loop taken as a reduce; coalesced the rule
# COALESCED-DIM of pass coalescing, the fastest dim of a grid segmap), or
# after the pass: fusion, dead, switch) and each
# RULE-CASE.STRATEGY.expected beside it, flat-ir --strategy=STRATEGY must
# print exactly the expected target IR (kernels and the guarded plan).
# The expected files were checked by hand against paper 000's rules; a
# change of a rule shows here as a diff.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
FLAT_IR=${FLAT_IR:-$(dirname "$FLAT_GCC")/flat-ir}
harness_tmpdir
n=0
for expected in "$HARNESS_DIR"/golden/*.expected; do
  base=${expected%.expected}
  strategy=${base##*.}
  ir=${base%.*}.ir
  [ -f "$ir" ] || harness_error "no input $ir for $expected"
  "$FLAT_IR" --strategy="$strategy" "$ir" > "$HARNESS_TMP/out" 2>&1 \
    || { cat "$HARNESS_TMP/out" >&2; harness_fail "flat-ir failed on $(basename "$ir")"; }
  cmp -s "$expected" "$HARNESS_TMP/out" \
    || { diff "$expected" "$HARNESS_TMP/out" >&2
	 harness_fail "$(basename "$expected"): target IR differs"; }
  n=$((n + 1))
done
# Every rule that can fire on lifted C has a case.
for rule in g0 g1 g2 g3 g6 g7 g8 g9 i1 i4 i5 i6 implicit t1 t2 coalesced; do
  ls "$HARNESS_DIR"/golden/$rule-*.incremental.expected >/dev/null 2>&1 \
    || harness_fail "no golden test for rule $rule"
done
echo "golden-test: $n target IRs as expected"
