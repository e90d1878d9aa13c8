#!/bin/sh
# multidev-run.sh: nests spread over several devices (FLAT_DEVICES, SPEC
# section 3.1) on a machine of two or more GPUs, with bin/multidev-flat
# (bench/src/multidev.c).  bench/build.sh copies it into bench/out beside
# run.sh; run it from there:
#
#   bench/out/multidev-run.sh [--quick] [--out DIR]
#
# For each Flat device backend that runs here (FLAT_DEVICE=cuda, opencl;
# BENCH_FLAT_DEVICES names others) and each dataset, three processes:
#   one    FLAT_DEVICES unset: the first GPU alone, as without the feature
#   all    FLAT_DEVICES=all: the nests that can be split spread over
#          every GPU of the backend
#   bytes  FLAT_DEVICES=all FLAT_LOG=2, one timed call: the bytes each
#          device received and sent back per execution of each nest, and
#          the bytes of data regions' arrays moved between devices
# and writes into DIR (default multidev-results beside this script):
#   results.csv   benchmark,variant,size,ms_median,ms_first (variant
#                 flat-cuda, flat-cuda+all, ...; jacobi per step)
#   bytes.csv     backend,size,nest (its benchmark's name first),device,
#                 iterations (LO-HI, HI not run),copyin,copyout
#   multidev.md   one table: time on one device, on all, the speed-up,
#                 and the bytes per device, plus notes.txt
#   logs/         each process's output
# --quick: tiny sizes, to check a build on any machine (PoCL can present
# its CPU as several devices: POCL_DEVICES="pthread pthread").
# Environment: BENCH_BUDGET_S (default 2), BENCH_TIMEOUT_S (default 300).
set -u

here=$(cd "$(dirname "$0")" && pwd)
# The options; the carried libflat first on LD_LIBRARY_PATH (as run.sh),
# then NVRTC for the CUDA backend; an OpenCL ICD file for NVIDIA's
# driver when the machine has none.
. "$here/device-env.sh"
bench_start multidev "$@"

# SAXPY_N MATMUL_M JACOBI_N STEPS REPS: saxpy of 2^28 floats (1 GiB per
# array), a 2048^3 matrix product (its sequential check takes seconds; a
# larger one, minutes), jacobi on 8192^2.  Three processes per dataset
# and backend: about 2 minutes on a 2-GPU H100 machine, most of it the
# host's checks.
if [ $quick = yes ]; then
  datasets="100000 64 300 4 3"
else
  datasets="268435456 2048 8192 10 5
16777216 1024 2048 10 10"
fi

export BENCH_BUDGET_S=${BENCH_BUDGET_S:-2}
timeout_s=${BENCH_TIMEOUT_S:-300}
if command -v nvidia-smi >/dev/null 2>&1; then
  nvidia-smi -L >>"$out/notes.txt" 2>&1
else
  echo "no nvidia-smi" >>"$out/notes.txt"
fi

# run_one LOG ENV...: bin with the dataset's arguments ($args), its CSV
# lines into results.csv; a fresh kernel cache for each process.
run_one ()
{
  log=$1
  shift
  cache=$(mktemp -d)
  # shellcheck disable=SC2086
  env FLAT_CACHE_DIR="$cache" "$@" timeout "$timeout_s" "$bin" $args \
    >"$out/logs/$log.out" 2>"$out/logs/$log.err"
  status=$?
  rm -rf "$cache"
  [ $status -eq 0 ] || echo "$log: exit status $status" >>"$out/notes.txt"
  grep -v '^#' "$out/logs/$log.out" | grep -v '^FAIL' >>"$out/results.csv"
  grep '^FAIL' "$out/logs/$log.out" >>"$out/notes.txt"
  grep '^flat: warning' "$out/logs/$log.err" | sort -u >>"$out/notes.txt"
}

# The devices of BACKEND that FLAT_DEVICES=all opens here (FLAT_LOG=1
# logs each one after the first); 0 when the backend does not run.
devices_of ()
{
  FLAT_DEVICE=$1 FLAT_DEVICES=all FLAT_LOG=1 BENCH_BUDGET_S=0 \
    timeout "$timeout_s" "$bin" 1000 8 8 1 1 >/dev/null 2>"$out/probe.err"
  if grep -q "^flat: warning: FLAT_DEVICE=$1" "$out/probe.err"; then
    echo 0
  else
    echo $(($(grep -c "^flat: device .* on $1: .*(FLAT_DEVICES)" \
	      "$out/probe.err") + 1))
  fi
}

echo "benchmark,variant,size,ms_median,ms_first" >"$out/results.csv"
echo "backend,size,nest,device,iterations,copyin,copyout" >"$out/bytes.csv"
for backend in ${BENCH_FLAT_DEVICES:-cuda opencl}; do
  n=$(devices_of "$backend")
  echo "$backend: $n device(s) with FLAT_DEVICES=all" >>"$out/notes.txt"
  [ "$n" -gt 0 ] || continue
  echo "$datasets" | while read -r args; do
    tag=$backend-$(echo "$args" | tr ' ' '_')
    echo "multidev-run.sh: $backend $args"
    run_one "$tag-one" FLAT_DEVICE="$backend"
    run_one "$tag-all" FLAT_DEVICE="$backend" FLAT_DEVICES=all
    # One timed call (REPS 1) with the transfers logged.
    args_bytes=$(echo "$args" | awk '{ $5 = 1; print }')
    cache=$(mktemp -d)
    # shellcheck disable=SC2086
    FLAT_CACHE_DIR="$cache" FLAT_DEVICE="$backend" FLAT_DEVICES=all \
      FLAT_LOG=2 timeout "$timeout_s" "$bin" $args_bytes \
      >"$out/logs/$tag-bytes.out" 2>"$out/logs/$tag-bytes.err"
    rm -rf "$cache"
    # "flat: split NEST on B device I: iterations [LO, HI), copyin X
    # bytes, copyout Y bytes": the last execution of each nest and device
    # in each benchmark ("#timing,BENCHMARK,..." lines start them).
    awk -v b="$backend" -v size="$(echo "$args" | cut -d' ' -f1-4)" '
      /^#timing,/ { split($0, t, ","); bench = t[2] }
      /^flat: split / {
        key = bench SUBSEP $3 SUBSEP $7
        lo = $9; hi = $10
        gsub(/[^0-9]/, "", lo); gsub(/[^0-9]/, "", hi)
        it[key] = lo "-" hi
        cin[key] = $12; cout[key] = $15
        nest[key] = bench " " $3; dev[key] = $7; sub(/:$/, "", dev[key])
      }
      END {
        for (k in it)
          printf "%s,%s,%s,%s,%s,%s,%s\n", b, size, nest[k], dev[k],
                 it[k], cin[k], cout[k]
      }' "$out/logs/$tag-bytes.err" | sort >>"$out/bytes.csv"
    # "flat: between devices region SECTION N bytes": the bytes of data
    # regions' arrays that moved between devices, in all, per array.
    awk -v b="$backend" -v size="$(echo "$args" | cut -d' ' -f1-4)" '
      /^flat: between devices region / {
        a = $5
        for (i = 6; i < NF - 1; i++)
          a = a " " $i
        moved[a] += $(NF - 1)
      }
      END {
        for (a in moved)
          printf "%s,%s,region %s,between,all calls,%s,%s\n", b, size, a,
                 moved[a], moved[a]
      }' "$out/logs/$tag-bytes.err" | sort >>"$out/bytes.csv"
  done
done

# The table: one device against all, per benchmark and dataset.
awk -F, '
  NR == 1 { next }
  {
    split($2, v, "+")
    key = $1 SUBSEP v[1] SUBSEP $3
    if (v[2] == "") one[key] = $4; else all[key] = $4
    keys[key] = 1
  }
  END {
    print "| benchmark | backend | size | one device (ms, median) | all (ms) | speed-up |"
    print "| --- | --- | --- | --- | --- | --- |"
    for (k in keys) {
      split(k, f, SUBSEP)
      s = (k in one) && (k in all) && all[k] > 0 ? sprintf("%.2f", one[k] / all[k]) : "-"
      printf "| %s | %s | %s | %s | %s | %s |\n", f[1], f[2], f[3],
             (k in one) ? one[k] : "-", (k in all) ? all[k] : "-", s
    }
  }' "$out/results.csv" >"$out/multidev.md"
{
  echo
  echo "Bytes per device and execution (FLAT_LOG=2):"
  echo
  echo "| backend | size | nest | device | iterations | copyin | copyout |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  tail -n +2 "$out/bytes.csv" | sed 's/,/ | /g; s/^/| /; s/$/ |/'
  echo
  echo "Notes:"
  echo
  sed 's/^/    /' "$out/notes.txt"
} >>"$out/multidev.md"
cat "$out/multidev.md"
