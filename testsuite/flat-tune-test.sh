#!/bin/sh
# flat-tune --list and --versions (SPEC 4), read from program files:
#
#   * hand-written packages (IR text assembled into .flat_packages with
#     .incbin, so the test does not depend on what the flattening rules
#     make today) with a guard tree of every kind, a plan loop, a plan if,
#     an empty branch, unnamed and named nests and Par expressions that
#     need C's precedence: --list and --versions give exactly the text
#     below;
#   * a program built with the plugin: its nests are listed under their
#     names (name(...) or file:line), every threshold is called
#     "<nest>.<k>", and --versions agrees with --list;
#   * errors: one line on stderr, status 1 for a file that is not a Flat
#     program, 2 for bad usage;
#   * the search on two datasets of that program: a tuning file with every
#     threshold, which the program reads back without a warning.
. "$(dirname "$0")/harness.sh"
[ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
FLAT_TUNE=${FLAT_TUNE:-$(dirname "$FLAT_GCC")/flat-tune}
[ -x "$FLAT_TUNE" ] || harness_error "no flat-tune at $FLAT_TUNE"
CC=${CC:-gcc}
harness_tmpdir
tmp=$HARNESS_TMP
cd "$tmp" || harness_error "cannot enter $tmp"

# ---- Hand-written packages ----------------------------------------------

cat > mm.ir <<'EOF'
nest "mm" at "mm.c" 12 {
  param n : i32
  param m : i32
  mem x : f32 read
  mem y : f32 write
  body {
    map i : i32 = 0:i32 .. n step 1:i32 {
      let s : f32 = 0x0p+0:f32
      reduce k : i32 = 0:i32 .. m step 1:i32 with (add s) {
        set s = (add s (load x (cast i64 (add (mul i m) k))))
      }
      store y[(cast i64 i)] = s
    }
  }
  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
    let s : f32 = 0x0p+0:f32
    reduce k : i32 = 0:i32 .. m step 1:i32 with (add s) {
      set s = (add s (load x (cast i64 (add (mul i m) k))))
    }
    store y[(cast i64 i)] = s
  }
  kernel k1 segmap group (i : i32 = 0:i32 .. n step 1:i32) threads (cast i64 m) {
    let s : f32 = 0x0p+0:f32
    segred0 k : i32 = 0:i32 .. m step 1:i32 with (add s) {
      set s = (add s (load x (cast i64 (add (mul i m) k))))
    }
    store y[(cast i64 i)] = s
  }
  kernel k2 segred grid (i : i32 = 0:i32 .. n step 1:i32, k : i32 = 0:i32 .. m step 1:i32) segments 1 with (add s) pre {
    let s : f32 = 0x0p+0:f32
  } body {
    set s = (add s (load x (cast i64 (add (mul i m) k))))
  } post {
    store y[(cast i64 i)] = s
  }
  plan {
    guard "mm.0" host (mul (cast i64 n) (cast i64 m)) {
      guard "mm.1" top (cast i64 n) {
        launch k0
      } else {
        guard "mm.2" intra (mul (cast i64 n) (cast i64 m)) {
          launch k1
        } else {
          launch k2
        }
      }
    } else {
      host
    }
  }
}
EOF

cat > steps.ir <<'EOF'
nest "steps.c:30" at "steps.c" 30 {
  param n : i32
  param steps : i32
  mem a : f32 read write
  index t : i32
  body {
    map i : i32 = 0:i32 .. n step 1:i32 {
      loop t : i32 = 0:i32 .. steps step 1:i32 {
        store a[(cast i64 i)] = (add (load a (cast i64 i)) 0x1p+0:f32)
      }
    }
  }
  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
    loop t : i32 = 0:i32 .. steps step 1:i32 {
      store a[(cast i64 i)] = (add (load a (cast i64 i)) 0x1p+0:f32)
    }
  }
  kernel k1 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
    store a[(cast i64 i)] = (add (load a (cast i64 i)) 0x1p+0:f32)
  }
  kernel k2 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
    store a[(cast i64 i)] = (sub (load a (cast i64 i)) (cast f32 t))
  }
  kernel k3 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
    store a[(cast i64 i)] = (add (load a (cast i64 i)) (cast f32 t))
  }
  plan {
    guard "steps.c:30.0" host (mul (cast i64 n) (cast i64 steps)) {
      guard "steps.c:30.1" top (cast i64 n) {
        launch k0
      } else {
        loop t : i32 = 0:i32 .. steps step 2:i32 {
          guard "steps.c:30.2" top (max (sub (cast i64 n) (cast i64 t)) 0:i64) {
            launch k1
          } else {
            if (gt steps 2:i32) {
              launch k2
            } else {
              launch k3
            }
          }
          guard "steps.c:30.3" intra (cast i64 n) {
            launch k1
          } else {
            launch k3
          }
        }
      }
    } else {
      host
    }
  }
}
EOF

cat > odd.ir <<'EOF'
nest "odd-nest" at "odd.c" 5 {
  param n : i32
  param m : i32
  mem a : f32 write
  body {
    map i : i32 = 0:i32 .. n step 1:i32 {
      store a[(cast i64 i)] = 0x0p+0:f32
    }
  }
  kernel k0 segmap grid (i : i32 = 0:i32 .. n step 1:i32) {
    store a[(cast i64 i)] = 0x0p+0:f32
  }
  plan {
    guard "odd-nest.0" host (mul (add (cast i64 n) 1:i64) (sub (cast i64 m) (sub (cast i64 n) 1:i64))) {
      guard "odd-nest.1" top (select (gt n 0:i32) (cast i64 (cast u32 m)) (neg (neg (cast i64 n)))) {
        launch k0
      } else {
      }
    } else {
      host
    }
  }
}
EOF

printf 'nest "broken" at "b.c" 1 {\n  body {\n' > broken.ir

# package LABEL IR-FILE VERSION [NAME LOCATION]: assembly of one package
# (flatten/package.h) with the plan IR-FILE, and the name and location
# sections when given.
package ()
{
  n=1
  [ -z "${4:-}" ] || n=3
  cat <<EOF
	.balign 8
$1:	.ascii "FLATPKG\\0"
	.long $3, $1_end - $1, $n, 0
	.long 3, $1_plan - $1, $1_plan_end - $1_plan, 0
EOF
  if [ -n "${4:-}" ]; then
    cat <<EOF
	.long 1, $1_name - $1, $1_loc - $1_name, 0
	.long 2, $1_loc - $1, $1_plan - $1_loc, 0
$1_name: .asciz "$4"
$1_loc:	.asciz "$5"
EOF
  fi
  cat <<EOF
$1_plan: .incbin "$2"
	.byte 0
$1_plan_end:
	.balign 8, 0
$1_end:
EOF
}

# program NAME PACKAGE-ASSEMBLY...: a C program with those packages.
program ()
{
  out=$1
  shift
  {
    echo '	.section .flat_packages,"a"'
    for p in "$@"; do
      cat "$p"
    done
    echo '	.section .note.GNU-stack,"",@progbits'
  } > "$out.s"
  $CC main.c "$out.s" -o "$out" 2> "$out.err" \
    || { cat "$out.err" >&2; harness_error "cannot build $out"; }
}

# The package version this Flat writes and reads, and another one.
version=$(sed -n 's/^#define FLAT_PACKAGE_VERSION \([0-9]*\)u$/\1/p' \
  "$HARNESS_DIR/../flatten/package.h")
[ -n "$version" ] || harness_error "no FLAT_PACKAGE_VERSION in flatten/package.h"
echo 'int main (void) { return 0; }' > main.c
package p_mm mm.ir "$version" mm mm.c:12 > mm.pkg
package p_steps steps.ir "$version" > steps.pkg
package p_odd odd.ir "$version" odd-nest odd.c:5 > odd.pkg
package p_broken broken.ir "$version" broken b.c:1 > broken.pkg
package p_v2 mm.ir $((version + 1)) mm mm.c:12 > v2.pkg
program hand mm.pkg steps.pkg odd.pkg
program with_broken mm.pkg broken.pkg
program bad_version v2.pkg

cat > list.expected <<'EOF'
nest mm at mm.c:12: 4 versions
  guard mm.0 host: Par = n * m  [FLAT_THRESHOLD_mm_0]
  then:
    guard mm.1 top: Par = n  [FLAT_THRESHOLD_mm_1]
    then:
      k0 segmap grid (i)
    else:
      guard mm.2 intra: Par = n * m  [FLAT_THRESHOLD_mm_2]
      then:
        k1 segmap group (i) threads m
      else:
        k2 segred grid (i, k) segments 1
  else:
    host (original loop)

nest steps.c:30: 6 versions
  guard steps.c:30.0 host: Par = n * steps  [FLAT_THRESHOLD_steps_c_30_0]
  then:
    guard steps.c:30.1 top: Par = n  [FLAT_THRESHOLD_steps_c_30_1]
    then:
      k0 segmap grid (i)
    else:
      loop t = 0 .. steps step 2:
        guard steps.c:30.2 top: Par = max(n - t, 0)  [FLAT_THRESHOLD_steps_c_30_2]
        then:
          k1 segmap grid (i)
        else:
          if steps > 2
          then:
            k2 segmap grid (i)
          else:
            k3 segmap grid (i)
        guard steps.c:30.3 intra: Par = n  [FLAT_THRESHOLD_steps_c_30_3]
        then:
          k1 segmap grid (i)
        else:
          k3 segmap grid (i)
  else:
    host (original loop)

nest odd-nest at odd.c:5: 3 versions
  guard odd-nest.0 host: Par = (n + 1) * (m - (n - 1))  [FLAT_THRESHOLD_odd_nest_0]
  then:
    guard odd-nest.1 top: Par = n > 0 ? (unsigned int) m : -(-n)  [FLAT_THRESHOLD_odd_nest_1]
    then:
      k0 segmap grid (i)
    else:
      (nothing)
  else:
    host (original loop)
EOF

# Under steps.c:30.1's else, two guards side by side in the loop give
# every combination of their branches; the arms of the plan if count as
# one version (k2,k3), whichever the data takes.
max=9223372036854775807
tab=$(printf '\t')
sed "s/ *| */$tab/g" > versions.expected <<EOF
mm | 0 | k0 | FLAT_THRESHOLD_mm_0=0 FLAT_THRESHOLD_mm_1=0
mm | 1 | k1 | FLAT_THRESHOLD_mm_0=0 FLAT_THRESHOLD_mm_1=$max FLAT_THRESHOLD_mm_2=0
mm | 2 | k2 | FLAT_THRESHOLD_mm_0=0 FLAT_THRESHOLD_mm_1=$max FLAT_THRESHOLD_mm_2=$max
mm | 3 | host | FLAT_THRESHOLD_mm_0=$max
steps.c:30 | 0 | k0 | FLAT_THRESHOLD_steps_c_30_0=0 FLAT_THRESHOLD_steps_c_30_1=0
steps.c:30 | 1 | k1 | FLAT_THRESHOLD_steps_c_30_0=0 FLAT_THRESHOLD_steps_c_30_1=$max FLAT_THRESHOLD_steps_c_30_2=0 FLAT_THRESHOLD_steps_c_30_3=0
steps.c:30 | 2 | k1,k3 | FLAT_THRESHOLD_steps_c_30_0=0 FLAT_THRESHOLD_steps_c_30_1=$max FLAT_THRESHOLD_steps_c_30_2=0 FLAT_THRESHOLD_steps_c_30_3=$max
steps.c:30 | 3 | k2,k3,k1 | FLAT_THRESHOLD_steps_c_30_0=0 FLAT_THRESHOLD_steps_c_30_1=$max FLAT_THRESHOLD_steps_c_30_2=$max FLAT_THRESHOLD_steps_c_30_3=0
steps.c:30 | 4 | k2,k3 | FLAT_THRESHOLD_steps_c_30_0=0 FLAT_THRESHOLD_steps_c_30_1=$max FLAT_THRESHOLD_steps_c_30_2=$max FLAT_THRESHOLD_steps_c_30_3=$max
steps.c:30 | 5 | host | FLAT_THRESHOLD_steps_c_30_0=$max
odd-nest | 0 | k0 | FLAT_THRESHOLD_odd_nest_0=0 FLAT_THRESHOLD_odd_nest_1=0
odd-nest | 1 | - | FLAT_THRESHOLD_odd_nest_0=0 FLAT_THRESHOLD_odd_nest_1=$max
odd-nest | 2 | host | FLAT_THRESHOLD_odd_nest_0=$max
EOF

# same WHAT EXPECTED ACTUAL
same ()
{
  cmp -s "$2" "$3" || { diff -u "$2" "$3" >&2; harness_fail "$1"; }
}

"$FLAT_TUNE" --list hand > list.out 2> list.err \
  || { cat list.err >&2; harness_fail "--list failed on hand-written packages"; }
[ -s list.err ] && { cat list.err >&2; harness_fail "--list wrote to stderr"; }
same "--list of hand-written packages" list.expected list.out
"$FLAT_TUNE" --versions hand > versions.out 2> versions.err \
  || { cat versions.err >&2; harness_fail "--versions failed"; }
same "--versions of hand-written packages" versions.expected versions.out

# ---- Errors ---------------------------------------------------------------

# fails STATUS PATTERN ARGS...: flat-tune ARGS exits STATUS with one line
# on stderr that matches PATTERN.
fails ()
{
  want=$1 pattern=$2
  shift 2
  "$FLAT_TUNE" "$@" > err.out 2> err.err
  got=$?
  [ "$got" -eq "$want" ] \
    || { cat err.err >&2; harness_fail "flat-tune $*: status $got, not $want"; }
  [ "$(wc -l < err.err)" -eq 1 ] && grep -q -- "$pattern" err.err \
    || { cat err.err >&2; harness_fail "flat-tune $*: expected one line '$pattern'"; }
}

fails 1 'not an ELF file' --list main.c
fails 1 'No such file' --list no-such-program
fails 1 'not a regular file' --versions .
$CC main.c -o plain || harness_error "cannot build a plain program"
fails 1 'no Flat nests' --list plain
cp hand not64 && printf '\001' | dd of=not64 bs=1 seek=4 conv=notrunc 2>/dev/null \
  || harness_error "cannot patch a copy"
fails 1 'not a 64-bit ELF file' --list not64
head -c 200 hand > truncated
fails 1 'section header table' --list truncated
fails 1 "package of the loop at mm.c:12 of version $((version + 1)), this Flat reads $version" --list bad_version
fails 1 'package 1 (broken): plan:' --versions with_broken
grep -q '^mm	3	host	' err.out \
  || harness_fail "the good package before a broken one is not listed"
fails 2 'usage: flat-tune' --list
fails 2 'usage: flat-tune' --bogus hand
fails 2 'usage: flat-tune'
fails 2 'usage: flat-tune' --timeout -3 -- ./hand
fails 2 'usage: flat-tune' --datasets d
fails 1 'no-such-file: cannot read it' --datasets no-such-file -- ./hand
"$FLAT_TUNE" --help | grep -q -- '--versions' || harness_fail "--help"
"$FLAT_TUNE" --version | grep -q '^flat-tune (Flat) [0-9]' \
  || harness_fail "--version"

# ---- A program built with the plugin ---------------------------------------

cat > tp.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>

static void
scale (int n, int m, float *a, const float *b)
{
#pragma flat map name(scale)
  for (int i = 0; i < n; i++)
#pragma flat map
    for (int j = 0; j < m; j++)
      a[i * m + j] = 2.0f * b[i * m + j];
}

static float
total (int n, const float *a)
{
  float s = 0.0f;
#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

int
main (int argc, char **argv)
{
  int n = argc > 1 ? atoi (argv[1]) : 10;
  float *a = calloc (n * n + 1, sizeof *a), *b = calloc (n * n + 1, sizeof *b);
  for (int i = 0; i < n * n; i++)
    b[i] = (float) i;
  scale (n, n, a, b);
  printf ("%g\n", total (n * n, a));
  return 0;
}
EOF
"$FLAT_GCC" -std=gnu11 -O2 tp.c -o tp -fplugin-arg-flat-verbose 2> tp.err \
  || { cat tp.err >&2; harness_fail "the flat build of tp.c failed"; }
"$FLAT_TUNE" --list tp > tp.list 2> tp.list.err \
  || { cat tp.list.err >&2; harness_fail "--list tp failed"; }
"$FLAT_TUNE" --versions tp > tp.versions \
  || harness_fail "--versions tp failed"
sed 's/^/  | /' tp.list

# The nests are named and placed (the line of each pragma).
scale_line=$(grep -n 'name(scale)' tp.c | cut -d: -f1)
total_line=$(grep -n 'reduce(+: s)' tp.c | cut -d: -f1)
grep -q "^nest scale at tp.c:$scale_line: [0-9]* versions*$" tp.list \
  || harness_fail "--list: no nest 'scale' at tp.c:$scale_line"
grep -q "^nest tp.c:$total_line: [0-9]* versions*$" tp.list \
  || harness_fail "--list: no nest tp.c:$total_line"
[ "$(grep -c '^nest ' tp.list)" -eq 2 ] || harness_fail "--list: not 2 nests"

# Every threshold is "<nest>.<k>" and its variable is the sanitised name;
# every nest launches k0 in some version; the version counts of the
# headings are the line counts of --versions, indices 0, 1, ...
awk '
  function bad(msg) { print "flat-tune-test: " msg ": " $0; failed = 1 }
  /^nest / {
    nest = $2
    sub(/:$/, "", nest)
    count[nest] = $(NF - 1)
    next
  }
  /^ *guard / {
    name = $2
    if (index(name, nest ".") != 1 || substr(name, length(nest) + 2) !~ /^[0-9]+$/)
      bad("threshold not named " nest ".<k>")
    var = name
    gsub(/[^A-Za-z0-9_]/, "_", var)
    if ($NF != "[FLAT_THRESHOLD_" var "]")
      bad("variable is not FLAT_THRESHOLD_" var)
  }
  /^ *k0 / { k0[nest] = 1 }
  END {
    for (n in count)
      if (!(n in k0)) {
        print "flat-tune-test: nest " n " has no k0"
        failed = 1
      }
    exit failed
  }' tp.list || harness_fail "--list of tp"
# The plugin's verbose note counts the versions as flat-tune does.
sed -n "s/.*note: flat: lifted '\\(.*\\)' as .*: \\([0-9]*\\) version.*/nest \\1 \\2/p" \
  tp.err > tp.notes
[ "$(wc -l < tp.notes)" -eq 2 ] \
  || { cat tp.err >&2; harness_fail "verbose: not 2 'lifted' notes"; }
while read -r word nest n; do
  grep -q "^nest $nest\( at [^ ]*\)*: $n versions*$" tp.list \
    || harness_fail "--list does not count $n versions for $nest (the plugin does)"
done < tp.notes
awk -F '\t' '
  function bad(msg) { print "flat-tune-test: --versions: " msg ": " $0; failed = 1 }
  NR == FNR {
    if ($1 == "nest") {
      n = $2
      sub(/:$/, "", n)
      count[n] = $(NF - 1)
    }
    next
  }
  {
    if (NF != 4)
      bad("not 4 fields")
    if (!($1 in count))
      bad("nest not in --list")
    if ($2 != seen[$1]++)
      bad("index out of order")
    if ($3 !~ /^(host|-|k[0-9]+(,k[0-9]+)*)$/)
      bad("kernels")
    if ($4 !~ /^(FLAT_THRESHOLD_[A-Za-z0-9_]+=(0|9223372036854775807)( |$))*$/)
      bad("settings")
  }
  END {
    for (n in count)
      if (seen[n] != count[n]) {
        print "flat-tune-test: " n ": " count[n] " versions listed, " seen[n] " lines"
        failed = 1
      }
    exit failed
  }' FS=' ' tp.list FS='\t' tp.versions || harness_fail "--versions of tp"

# ---- The search -------------------------------------------------------------

# On two datasets (one per line, '#' lines skipped) the search writes a
# tuning file with a value for every threshold of every nest, names its
# datasets and versions, and the program reads it back without a warning
# and prints what it prints without it.  Which values it picks depends on
# timings, which a test must not judge.
printf '12\n# a comment\n30\n' > tp.datasets
"$FLAT_TUNE" --datasets tp.datasets --timeout 120 -o tp.tuning -- ./tp \
  > tp.search 2> tp.search.err \
  || { cat tp.search.err >&2; harness_fail "the search failed"; }
grep -q '^flat-tune: wrote tp.tuning (2 datasets)$' tp.search \
  || harness_fail "the search did not report its file"
grep -q '^# dataset 1: 12$' tp.tuning && grep -q '^# dataset 2: 30$' tp.tuning \
  || { cat tp.tuning >&2; harness_fail "datasets not named in the tuning file"; }
for name in $(sed -n 's/^ *guard \([^ ]*\) .*/\1/p' tp.list); do
  grep -q "^$name=[0-9][0-9]*\$" tp.tuning \
    || { cat tp.tuning >&2; harness_fail "no value for threshold $name"; }
done
grep -q '^#   version 0 (' tp.tuning \
  || harness_fail "no measured versions in the tuning file"
for size in 12 30; do
  ./tp $size > plain.out 2>/dev/null || harness_fail "tp $size failed"
  FLAT_TUNING=$tmp/tp.tuning ./tp $size > tuned.out 2> tuned.err \
    || harness_fail "tp $size with the tuning file failed"
  cmp -s plain.out tuned.out || harness_fail "tp $size: other output when tuned"
  ! grep -q 'warning' tuned.err \
    || { cat tuned.err >&2; harness_fail "the tuning file gives warnings"; }
done

echo "ok: flat-tune --list, --versions and the search"
