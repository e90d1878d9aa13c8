#!/bin/sh
# sanitize.sh [DIR]: every e2e program that gpu/build.sh prebuilt into DIR
# (default: bin beside this script), run on CUDA under compute-sanitizer's
# four tools (memcheck, racecheck, synccheck, initcheck), once per code
# version (the FLAT_THRESHOLD_* settings of its flat_O2.versions), at
# the sizes FLAT_SANITIZE_SIZES ("1 4099": one item, and several groups
# with a partial last one; memcheck takes every size, the other tools
# the largest).  FLAT_SANITIZE_TOOLS names the tools besides memcheck
# (default: racecheck synccheck initcheck), FLAT_SANITIZE_ONLY (an
# extended regex) keeps the programs it matches.  Each run prints its
# verdict as it ends.
#
# A run passes when the tool reports no error in its summary, the
# program exits 0, and no nest fell back to the host nor missed CUDA
# (other warnings, such as region_update's on purpose, are the
# program's business).  One line per failing run with the tool's first
# reports, per-tool counts, and at the end "N passed, M failed".  FLAT_GPU_JOBS runs at a time (default 8).
# Exit status: 0 all passed, 1 some failed, 99 nothing to run.

here=$(cd "$(dirname "$0")" && pwd) || exit 99

# sanitize.sh --one TOOL NAME VERSION SIZE LOGDIR DIR: one run.
if [ "$1" = --one ]; then
  tool=$2 name=$3 version=$4 size=$5 logs=$6 dir=$7
  bin=$dir/e2e/$name
  settings=$(awk -F '\t' -v v="$version" '
    { count[$1]++; line[$1, $2] = $4 }
    END { for (n in count) print line[n, v < count[n] ? v : count[n] - 1] }' \
    "$bin/flat_O2.versions" | tr '\n' ' ')
  log=$logs/$tool.$name.$version.$size.log
  # settings is a list of NAME=VALUE words: split on purpose.
  # shellcheck disable=SC2086
  compute-sanitizer --tool "$tool" --print-limit 10 \
    env $settings FLAT_DEVICE=cuda "$bin/flat_O2" "$size" \
    > "$log" 2>&1
  status=$?
  verdict=pass
  # racecheck sums up as "RACECHECK SUMMARY: 0 hazards displayed (0
  # errors, 0 warnings)", the other tools as "ERROR SUMMARY: 0 errors".
  if [ $status -ne 0 ] \
     || grep -q '^flat: warning:.*\(running on the host\|ignoring FLAT_\|no CUDA\)' \
	     "$log" \
     || ! grep -E -q 'ERROR SUMMARY: 0 errors|SUMMARY: 0 hazards displayed \(0 errors' "$log"; then
    verdict=fail
  fi
  echo "$verdict $tool $name version $version size $size" \
    | tee "$log.verdict"
  exit 0
fi

dir=$(cd "${1:-$here/bin}" 2>/dev/null && pwd) \
  || { echo "sanitize.sh: no ${1:-$here/bin}: run gpu/build.sh first" >&2
       exit 99; }
[ -s "$dir/MANIFEST" ] || { echo "sanitize.sh: no $dir/MANIFEST" >&2; exit 99; }
command -v compute-sanitizer > /dev/null \
  || { echo "sanitize.sh: no compute-sanitizer on PATH" >&2; exit 99; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/flat-sanitize.XXXXXX") || exit 99
trap 'rm -rf "$scratch"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$scratch/logs" "$scratch/cache" || exit 99
LD_LIBRARY_PATH=$dir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
FLAT_CACHE_DIR=$scratch/cache
export LD_LIBRARY_PATH FLAT_CACHE_DIR

sizes=${FLAT_SANITIZE_SIZES:-1 4099}
tools=${FLAT_SANITIZE_TOOLS:-racecheck synccheck initcheck}
# sizes is a list of numbers: split on purpose.
# shellcheck disable=SC2086
largest=$(printf '%s\n' $sizes | sort -n | tail -n 1)
grep -E -- "${FLAT_SANITIZE_ONLY:-.}" "$dir/MANIFEST" > "$scratch/manifest"
while read -r name; do
  versions=$(cut -f 1 "$dir/e2e/$name/flat_O2.versions" | sort | uniq -c \
	       | awk '$1 > n { n = $1 } END { print n + 0 }')
  v=0
  while [ $v -lt "$versions" ]; do
    for size in $sizes; do
      echo "memcheck $name $v $size"
    done
    for tool in $tools; do
      echo "$tool $name $v $largest"
    done
    v=$((v + 1))
  done
done < "$scratch/manifest" \
  | sed "s|\$| $scratch/logs $dir|; s|^|--one |" \
  | xargs -P "${FLAT_GPU_JOBS:-8}" -n 7 sh "$0" || exit 99

# The failing runs with their first reports, then the counts per tool.
for verdict in "$scratch"/logs/*.verdict; do
  [ -e "$verdict" ] || continue
  read -r result tool rest < "$verdict"
  if [ "$result" != pass ]; then
    echo "FAIL: $tool $rest"
    grep -E '^=+ |^flat: warning' "${verdict%.verdict}" | head -n 12 \
      | sed 's/^/  | /'
  fi
  echo "$tool $result"
done | awk '
  /^FAIL: |^  \| / { print; next }
  { runs[$1]++; if ($2 != "pass") bad[$1]++ }
  END {
    for (t in runs)
      printf "%s: %d runs, %d with errors\n", t, runs[t], bad[t] + 0
  }'
grep -l '^pass' "$scratch"/logs/*.verdict 2>/dev/null | wc -l > "$scratch/p"
grep -l '^fail' "$scratch"/logs/*.verdict 2>/dev/null | wc -l > "$scratch/f"
passed=$(cat "$scratch/p")
failed=$(cat "$scratch/f")
echo "$passed passed, $failed failed"
[ "$passed" -gt 0 ] && [ "$failed" -eq 0 ]
