# bench/flat-flags.sh, sourced by build.sh and versions.sh: the Flat
# options of single benchmarks.  matvec and matvec_t sum floats in
# unmarked inner loops, which Flat runs as reductions (several threads
# per row or column) only where the build allows floating-point
# reassociation (docs/user-guide.md, "Implicit reductions"); the other
# variants of these benchmarks are built as before.

# flat_flags PROGRAM: the extra flat-gcc options of PROGRAM.
flat_flags ()
{
  case $1 in
    matvec|matvec_t) echo -fplugin-arg-flat-reassociate ;;
  esac
}
