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
FLAT_TEST_TIMEOUT=${FLAT_TEST_TIMEOUT:-300}

mpi_cuda_aware || {
  echo "SKIP: this MPI does not take CUDA device addresses (Open MPI without CUDA support; FLAT_TEST_CUDA_AWARE_MPI=1 says another one does)" >&2
  exit 77; }
mpi_ranks cuda host_data "did not exchange at device addresses" \
  "^jacobi: rank RANK exchanged at device addresses"
echo "ok: 1, 2 and 3 ranks on CUDA, halo rows at device addresses: the results of plain mpicc"
