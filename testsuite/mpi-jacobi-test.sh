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
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-300}

mpi_ranks opencl update "did not say which device its rank chose" \
  "^flat: device [0-9]* of [0-9]* on opencl: .* (node-local rank RANK ([A-Z_]*) modulo "
echo "ok: 1, 2 and 3 ranks on OpenCL, halo rows by update: the results of plain mpicc"
