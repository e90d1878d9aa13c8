# Shell functions of the MPI tests, mpi-jacobi-test.sh and
# mpi-jacobi-cuda-test.sh (sourced after harness.sh, not run): the MPI
# installation, the two builds of mpi/jacobi.c, and runs of N ranks with
# each rank's stderr in a file of its own.
#
#   mpi_setup            mpicc and mpirun, or SKIP (exit 77) without them;
#                        builds $HARNESS_TMP/ref (plain) and .../flat
#   mpi_run OUT N ARGS   N ranks of ARGS...; stdout (rank 0's) in OUT,
#                        rank R's stderr in OUT.err.R; fails on an exit
#                        status other than 0
#   mpi_cuda_aware       whether this MPI takes CUDA device addresses
#   mpi_ranks DEVICE MODE WHAT LINE
#                        1, 2 and 3 ranks of the Flat build in MODE on
#                        FLAT_DEVICE=DEVICE: each rank runs its nests
#                        there without a warning and its stderr has a
#                        line matching LINE (RANK in it: the rank);
#                        2 and 3 ranks give the 1-rank output, which is
#                        plain mpicc's; SKIP (77) when rank 0 of 1 rank
#                        ran nothing on DEVICE; WHAT names LINE's
#                        check in messages

MPI_DIR=$HARNESS_DIR/mpi

mpi_setup ()
{
  for tool in mpicc mpirun; do
    command -v $tool > /dev/null 2>&1 || {
      echo "SKIP: no $tool: install an MPI (Debian: openmpi-bin libopenmpi-dev, which setup.sh installs)" >&2
      exit 77; }
  done
  [ -n "${FLAT_GCC:-}" ] || harness_error "FLAT_GCC is not set"
  harness_tmpdir
  harness_numdiff
  # Open MPI's mpirun refuses root and more ranks than cores unless told,
  # and wants no ssh for ranks on this machine; its shared-memory
  # transport cannot use process_vm_readv in many containers.  MPICH's
  # (Hydra) needs none of this and knows none of these options.
  MPIRUN_FLAGS=
  if mpirun --version 2>&1 | grep -q 'Open MPI'; then
    MPIRUN_FLAGS="--oversubscribe --allow-run-as-root"
    OMPI_MCA_plm_rsh_agent=${OMPI_MCA_plm_rsh_agent:-false}
    OMPI_MCA_btl_vader_single_copy_mechanism=none
    export OMPI_MCA_plm_rsh_agent OMPI_MCA_btl_vader_single_copy_mechanism
  fi
  # mpicc runs the compiler that OMPI_CC (Open MPI) or MPICH_CC names.
  OMPI_CC=${CC:-gcc} MPICH_CC=${CC:-gcc} mpicc -std=gnu11 -O2 \
    -Wno-unknown-pragmas "$MPI_DIR/jacobi.c" -o "$HARNESS_TMP/ref" -lm \
    || harness_error "the reference build with mpicc failed"
  OMPI_CC=$FLAT_GCC MPICH_CC=$FLAT_GCC mpicc -std=gnu11 -O2 \
    "$MPI_DIR/jacobi.c" -o "$HARNESS_TMP/flat" -lm \
    2> "$HARNESS_TMP/flat.cc" \
    || { cat "$HARNESS_TMP/flat.cc" >&2; harness_fail "the Flat build with mpicc failed"; }
  if grep -q 'flat:' "$HARNESS_TMP/flat.cc"; then
    cat "$HARNESS_TMP/flat.cc" >&2
    harness_fail "the Flat build has diagnostics"
  fi
  # Each rank's stderr to a file of its own: mpirun mixes, and may cut,
  # the lines of several ranks.
  cat > "$HARNESS_TMP/rank.sh" <<'RANK'
#!/bin/sh
out=$1
shift
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${PMIX_RANK:-${SLURM_PROCID:-0}}}}
exec "$@" 2> "$out.err.$rank"
RANK
}

mpi_run ()
{
  out=$1 ranks=$2
  shift 2
  rm -f "$out".err.*
  # MPIRUN_FLAGS is a list of options: split on purpose.
  # shellcheck disable=SC2086
  harness_timed mpirun $MPIRUN_FLAGS -np "$ranks" \
    sh "$HARNESS_TMP/rank.sh" "$out" "$@" > "$out" 2> "$out.mpirun"
  rc=$?
  [ $rc -eq 0 ] || {
    cat "$out.mpirun" "$out".err.* >&2 2> /dev/null
    harness_fail "$ranks rank(s) of $*: exit $rc"; }
}

mpi_cuda_aware ()
{
  [ "${FLAT_TEST_CUDA_AWARE_MPI:-}" = 1 ] && return 0
  command -v ompi_info > /dev/null 2>&1 \
    && ompi_info --parsable --all 2>/dev/null \
       | grep -q '^mca:mpi:base:param:mpi_built_with_cuda_support:value:true'
}

mpi_ranks ()
{
  device=$1 mode=$2 what=$3 line=$4
  mpi_run "$HARNESS_TMP/ref.out" 1 "$HARNESS_TMP/ref" "$mode"
  for ranks in 1 2 3; do
    out=$HARNESS_TMP/flat.$ranks
    FLAT_DEVICE=$device FLAT_LOG=1 mpi_run "$out" $ranks "$HARNESS_TMP/flat" \
      "$mode"
    r=0
    while [ $r -lt $ranks ]; do
      err=$out.err.$r
      grep -q "^flat: run .* on $device: " "$err" || {
	cat "$err" >&2
	[ $r -eq 0 ] && [ $ranks -eq 1 ] \
	  && { echo "SKIP: no $device device" >&2; exit 77; }
	harness_fail "$ranks ranks: rank $r ran no nest on $device"; }
      grep -q '^flat: warning' "$err" \
	&& { cat "$err" >&2; harness_fail "$ranks ranks: rank $r warned"; }
      grep -q "$(echo "$line" | sed "s/RANK/$r/g")" "$err" \
	|| { cat "$err" >&2; harness_fail "$ranks ranks: rank $r $what"; }
      r=$((r + 1))
    done
    cmp -s "$HARNESS_TMP/flat.1" "$out" \
      || { diff "$HARNESS_TMP/flat.1" "$out" | head >&2
	   harness_fail "$ranks ranks differ from 1 rank"; }
  done
  "$NUMDIFF" "$HARNESS_TMP/ref.out" "$HARNESS_TMP/flat.1" \
    > "$HARNESS_TMP/diff" 2>&1 \
    || { cat "$HARNESS_TMP/diff" >&2
	 harness_fail "Flat's results differ from plain mpicc's"; }
}
