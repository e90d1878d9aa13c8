#!/bin/sh
# The MPI job of mpi-jacobi-test.sh with its halo rows exchanged at
# their device addresses (`#pragma flat host_data use_device'), as a
# CUDA-aware MPI takes them: with 1, 2 and 3 ranks on CUDA, every rank
# exchanges at device addresses, and the results are the 1-rank run's
# and plain mpicc's.  Skipped unless the MPI is CUDA-aware (Open MPI
# built with CUDA, or FLAT_TEST_CUDA_AWARE_MPI=1 for another) and a CUDA
# device runs the nests.
. "$(dirname "$0")/harness.sh"
. "$HARNESS_DIR/mpi/mpi-lib.sh"
mpi_setup
tmp=$HARNESS_TMP
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-300}

mpi_cuda_aware || {
  echo "SKIP: this MPI does not take CUDA device addresses (Open MPI without CUDA support; FLAT_TEST_CUDA_AWARE_MPI=1 says another one does)" >&2
  exit 77; }
mpi_run "$tmp/ref.out" 1 "$tmp/ref" host_data
for ranks in 1 2 3; do
  out=$tmp/flat.$ranks
  FLAT_DEVICE=cuda FLAT_LOG=1 mpi_run "$out" $ranks "$tmp/flat" host_data
  r=0
  while [ $r -lt $ranks ]; do
    err=$out.err.$r
    grep -q '^flat: run .* on cuda: ' "$err" || {
      [ $r -eq 0 ] && [ $ranks -eq 1 ] && { echo "SKIP: no CUDA device" >&2; exit 77; }
      cat "$err" >&2; harness_fail "$ranks ranks: rank $r ran no nest on CUDA"; }
    grep -q '^flat: warning' "$err" \
      && { cat "$err" >&2; harness_fail "$ranks ranks: rank $r warned"; }
    grep -q "^jacobi: rank $r exchanged at device addresses" "$err" \
      || { cat "$err" >&2; harness_fail "$ranks ranks: rank $r did not exchange at device addresses"; }
    r=$((r + 1))
  done
  cmp -s "$tmp/flat.1" "$out" \
    || { diff "$tmp/flat.1" "$out" | head >&2; harness_fail "$ranks ranks differ from 1 rank"; }
done
"$NUMDIFF" "$tmp/ref.out" "$tmp/flat.1" > "$tmp/diff" 2>&1 \
  || { cat "$tmp/diff" >&2; harness_fail "Flat's results differ from plain mpicc's"; }
echo "ok: 1, 2 and 3 ranks on CUDA, halo rows at device addresses: the results of plain mpicc"
