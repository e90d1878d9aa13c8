#!/bin/sh
# run.sh [DIR]: validate Flat on a GPU machine with what gpu/build.sh
# prebuilt into DIR (default: bin beside this script), in a copy of the
# source tree; nothing is compiled here but the kernels.
#
#   * every e2e program on CUDA (run-e2e.sh, FLAT_TEST_DEVICES=cuda and
#     FLAT_TEST_PREBUILT), then on the NVIDIA OpenCL driver
#     (FLAT_TEST_DEVICES=opencl FLAT_PLATFORM=NVIDIA), FLAT_GPU_JOBS
#     programs at a time (default: the number of processors);
#   * the programs of nests over several devices (run-multidev.sh with
#     FLAT_MULTIDEV_GPUS=yes), on CUDA and on NVIDIA's OpenCL, one at a
#     time (each uses every GPU); on a machine of one GPU they run their
#     pipelined slices alone (FLAT_PIPELINE=always);
#   * the tuning file's host/device entries (tuned-side-test.sh) under
#     FLAT_DEVICE=auto, which takes CUDA: flat-tune's entries, and the
#     device side from the first run;
#   * the unit tests (flat-unit), whose OpenCL and CUDA tests then run on
#     the GPU (not with FLAT_GPU_NO_UNIT set).
#
# FLAT_GPU_LOG_DIR, a directory, gets every test's log at the end.
# FLAT_GPU_ONLY (an extended regex) keeps the e2e programs it matches;
# FLAT_GPU_DEVICES (default "cuda opencl") the backends they run on.
# Each test prints "done: DEVICE NAME STATUS" as it ends, so that a run
# cut short still tells how far it got.
#
# The NVIDIA OpenCL driver is registered through an ICD file in a
# scratch directory (OCL_ICD_VENDORS); the prebuilt libraries come first
# on LD_LIBRARY_PATH, and the prebuilt OpenCL loader when the machine has
# none.  One line per test, the logs of failures, and at the end
# "N passed, M failed".  A skip, a device that the runtime did not find,
# counts as a failure: on a GPU machine every device must be there.
# Exit status: 0 all passed, 1 some failed, 99 nothing to run.

here=$(cd "$(dirname "$0")" && pwd) || exit 99
top=$(cd "$here/../.." && pwd) || exit 99

# run.sh --one DEVICE NAME LOGDIR DIR: one e2e test, its log and exit
# status into LOGDIR (what xargs runs in parallel).
if [ "$1" = --one ]; then
  dev=$2 name=$3 logs=$4 dir=$5
  if [ "$dev" = opencl ]; then
    FLAT_PLATFORM=NVIDIA
    export FLAT_PLATFORM
  fi
  FLAT_TEST_DEVICES=$dev FLAT_TEST_PREBUILT=$dir/e2e/$name \
    sh "$top/testsuite/run-e2e.sh" "$top/testsuite/e2e/$name.c" \
    > "$logs/$dev.$name.log" 2>&1
  status=$?
  echo $status > "$logs/$dev.$name.status"
  echo "done: $dev $name $status"	# progress, for a run cut short
  exit 0
fi

dir=$(cd "${1:-$here/bin}" 2>/dev/null && pwd) \
  || { echo "run.sh: no ${1:-$here/bin}: run gpu/build.sh first" >&2; exit 99; }
[ -s "$dir/MANIFEST" ] || { echo "run.sh: no $dir/MANIFEST" >&2; exit 99; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/flat-gpu.XXXXXX") || exit 99
# FLAT_GPU_LOG_DIR keeps every test's log (the unit tests' whole output
# among them), for a failure whose reason is not in the lines shown.
trap 'if [ -n "${FLAT_GPU_LOG_DIR:-}" ]; then
	mkdir -p "$FLAT_GPU_LOG_DIR" && cp -r "$scratch/logs/." "$FLAT_GPU_LOG_DIR"
      fi; rm -rf "$scratch"' EXIT
trap 'exit 1' HUP INT TERM
mkdir "$scratch/logs" "$scratch/icd" "$scratch/cache" || exit 99

# The NVIDIA OpenCL driver: the first of the usual places.
icd=
for lib in /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 \
	   /usr/lib/libnvidia-opencl.so.1 /usr/lib64/libnvidia-opencl.so.1 \
	   /usr/local/nvidia/lib64/libnvidia-opencl.so.1 \
	   /usr/local/nvidia/lib/libnvidia-opencl.so.1; do
  if [ -e "$lib" ]; then
    icd=$lib
    break
  fi
done
[ -n "$icd" ] || icd=$(ldconfig -p 2>/dev/null \
		       | sed -n 's|.*libnvidia-opencl.so.1 .*=> ||p' | head -n 1)
if [ -n "$icd" ]; then
  echo "$icd" > "$scratch/icd/nvidia.icd" || exit 99
  echo "run.sh: NVIDIA OpenCL driver $icd"
else
  echo "run.sh: no libnvidia-opencl.so.1 found; OpenCL tests will fail"
fi
OCL_ICD_VENDORS=$scratch/icd
libs=$dir/lib
ldconfig -p 2>/dev/null | grep -q 'libOpenCL\.so\.1 ' || libs=$libs:$dir/lib/opencl
LD_LIBRARY_PATH=$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
NUMDIFF=$dir/numdiff
FLAT_CACHE_DIR=$scratch/cache
export OCL_ICD_VENDORS LD_LIBRARY_PATH NUMDIFF FLAT_CACHE_DIR
command -v nvidia-smi > /dev/null \
  && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

jobs=${FLAT_GPU_JOBS:-$(nproc 2>/dev/null || echo 4)}
# FLAT_GPU_ONLY: an extended regex; only the programs it matches run.
grep -E -- "${FLAT_GPU_ONLY:-.}" "$dir/MANIFEST" > "$scratch/manifest"
devices=${FLAT_GPU_DEVICES:-cuda opencl}
for dev in $devices; do
  sed "s|^|--one $dev |; s|\$| $scratch/logs $dir|" "$scratch/manifest"
done | xargs -P "$jobs" -n 5 sh "$0" || exit 99

passed=0
failed=0
# One result line; the log of a test that did not pass.
report ()
{
  case $2 in
    0) verdict=PASS ;;
    77) verdict=SKIP ;;
    *) verdict=FAIL ;;
  esac
  echo "$verdict: $1"
  if [ "$2" = 0 ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    [ -s "$3" ] && tail -n 25 "$3" | sed 's/^/  | /'
  fi
}
for dev in $devices; do
  while read -r name; do
    status=$(cat "$scratch/logs/$dev.$name.status" 2>/dev/null || echo 99)
    report "$dev $name" "$status" "$scratch/logs/$dev.$name.log"
  done < "$scratch/manifest"
done

# Several devices: a skip (no such device) is no failure.
skipped=0
for dev in cuda opencl; do
  [ -s "$dir/MULTIDEV" ] || break
  while read -r name; do
    log=$scratch/logs/multidev.$dev.$name.log
    if [ "$dev" = opencl ]; then
      platform=NVIDIA
    else
      platform=
    fi
    FLAT_PLATFORM=$platform FLAT_MULTIDEV_GPUS=yes FLAT_MULTIDEV_DEVICE=$dev \
      FLAT_TEST_PREBUILT=$dir/multidev/$name \
      sh "$top/testsuite/run-multidev.sh" "$top/testsuite/multidev/$name.c" \
      > "$log" 2>&1
    status=$?
    if [ $status = 77 ]; then
      echo "SKIP: multidev $dev $name: $(tail -n 1 "$log")"
      skipped=$((skipped + 1))
    else
      report "multidev $dev $name" "$status" "$log"
    fi
  done < "$dir/MULTIDEV"
done

if [ -d "$dir/tuned-side" ]; then
  log=$scratch/logs/tuned-side.log
  FLAT_TEST_PREBUILT=$dir/tuned-side sh "$top/testsuite/tuned-side-test.sh" \
    > "$log" 2>&1
  report "tuned-side-test (auto)" $? "$log"
fi

[ -z "${FLAT_GPU_NO_UNIT:-}" ] || { echo "$passed passed, $failed failed, $skipped skipped"; [ "$failed" -eq 0 ]; exit; }
# Unbuffered where possible, so that a crash shows the test it was in.
unbuffered=
command -v stdbuf > /dev/null && unbuffered="stdbuf -o0"
(cd "$top" && $unbuffered "$dir/flat-unit") > "$scratch/logs/unit.log" 2>&1
status=$?
grep -E '^not ok|^# |# SKIP' "$scratch/logs/unit.log" | sed 's/^/  unit: /'
! grep -q '# SKIP' "$scratch/logs/unit.log" || status=1
if grep -q 'Run Summary' "$scratch/logs/unit.log"; then
  sed -n '/Run Summary/,$p' "$scratch/logs/unit.log"
else
  tail -n 5 "$scratch/logs/unit.log" | sed 's/^/  unit: /'
fi
report "unit tests (flat-unit)" "$status" /dev/null

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
