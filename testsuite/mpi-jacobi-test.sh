#!/bin/sh
# An MPI job of Flat processes (SPEC section 3): mpi/jacobi.c, Jacobi
# sweeps on a grid in one-dimensional decomposition by rows, each rank's
# rows kept on its device by a data region, only the rows next to the
# neighbours brought to the host (`update host') for MPI_Sendrecv and
# the halo rows sent back (`update device').  With 1, 2 and 3 ranks on
# OpenCL (PoCL here):
#   - every rank runs its nests on the device, which its node-local rank
#     chose (FLAT_LOG=1 names the launcher's variable), with no warning;
#   - the output of 2 and 3 ranks is the 1-rank run's, bit for bit (each
#     point is computed by the same operations), and that of the same
#     program built by plain mpicc;
#   - the ranks share one kernel cache.
# Skipped without mpirun or mpicc, or without an OpenCL device.  The
# host_data exchange at device addresses: mpi-jacobi-cuda-test.sh.
. "$(dirname "$0")/harness.sh"
. "$HARNESS_DIR/mpi/mpi-lib.sh"
mpi_setup
tmp=$HARNESS_TMP
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-300}

mpi_run "$tmp/ref.out" 1 "$tmp/ref" update
for ranks in 1 2 3; do
  out=$tmp/flat.$ranks
  FLAT_DEVICE=opencl FLAT_LOG=1 mpi_run "$out" $ranks "$tmp/flat" update
  r=0
  while [ $r -lt $ranks ]; do
    err=$out.err.$r
    grep -q '^flat: run .* on opencl: ' "$err" || {
      cat "$err" >&2
      [ $r -eq 0 ] && [ $ranks -eq 1 ] && { echo "SKIP: no OpenCL device" >&2; exit 77; }
      harness_fail "$ranks ranks: rank $r ran no nest on the device"; }
    grep -q '^flat: warning' "$err" \
      && { cat "$err" >&2; harness_fail "$ranks ranks: rank $r warned"; }
    grep -q "^flat: device [0-9]* of [0-9]* on opencl: .* (node-local rank $r ([A-Z_]*) modulo " "$err" \
      || { cat "$err" >&2; harness_fail "$ranks ranks: rank $r did not say which device its rank chose"; }
    r=$((r + 1))
  done
  cmp -s "$tmp/flat.1" "$out" \
    || { diff "$tmp/flat.1" "$out" | head >&2; harness_fail "$ranks ranks differ from 1 rank"; }
done
"$NUMDIFF" "$tmp/ref.out" "$tmp/flat.1" > "$tmp/diff" 2>&1 \
  || { cat "$tmp/diff" >&2; harness_fail "Flat's results differ from plain mpicc's"; }
echo "ok: 1, 2 and 3 ranks on OpenCL, halo rows by update: the results of plain mpicc"
