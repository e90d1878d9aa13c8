# bench/flat-flags.sh, sourced by build.sh and versions.sh: the Flat
# options of single benchmarks.  matvec and matvec_t sum floats in
# unmarked inner loops, which Flat runs as reductions (several threads
# per row or column) only where the build allows floating-point
# reassociation (docs/user-guide.md, "Implicit reductions"); the other
# variants of these benchmarks are built as before.  The compute-bound
# benchmarks that stand against vendor or hand-written CUDA kernels
# (which fuse multiply-adds, as GCC's own OpenACC offloading does) are
# built with -ffp-contract=fast given explicitly, so that Flat's kernels
# fuse them too (docs/user-guide.md, "Floating-point contraction"); on
# x86-64 without fma their host code is the same either way.

# flat_flags PROGRAM: the extra flat-gcc options of PROGRAM.
flat_flags ()
{
  case $1 in
    matvec|matvec_t) echo -fplugin-arg-flat-reassociate ;;
    matmul|nbody|kmeans_dist|nearest) echo -ffp-contract=fast ;;
  esac
}
