# device-env.sh: sourced by run.sh, multidev-run.sh and pipeline-run.sh
# (bench/build.sh copies it beside them) to find the GPU machine's
# libraries, and by the last two for their options.
#
#   bench_device_env HERE DIR NOTES
#
# puts HERE/lib (the carried libflat, GCC's libgomp and nvptx plugin, the
# OpenCL loader) first in LD_LIBRARY_PATH, then this machine's cuBLAS,
# cuSPARSE and NVRTC (each one missing is noted in the file NOTES), and,
# where NVIDIA's OpenCL driver is installed without its ICD file (often),
# writes one into DIR/icd for OCL_ICD_VENDORS.

# The first directory under the usual CUDA places that holds file $1.
find_lib ()
{
  for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib \
	   /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 /usr/lib64; do
    if [ -e "$d/$1" ]; then
      echo "$d"
      return 0
    fi
  done
  f=$(find /usr/local /opt /usr/lib -name "$1" 2>/dev/null | head -n 1)
  [ -n "$f" ] && dirname "$f"
}

bench_device_env ()
{
  ld=$1/lib
  for l in libcublas.so.13 libcusparse.so.12 libnvrtc.so.13; do
    d=$(find_lib $l)
    if [ -n "$d" ]; then
      ld=$ld:$d
    else
      echo "$l not found on this machine" >>"$3"
    fi
  done
  export LD_LIBRARY_PATH=$ld${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if [ -z "${OCL_ICD_VENDORS-}" ] \
     && ! grep -qs nvidia /etc/OpenCL/vendors/*.icd; then
    d=$(find_lib libnvidia-opencl.so.1)
    if [ -n "$d" ]; then
      mkdir -p "$2/icd"
      echo "$d/libnvidia-opencl.so.1" >"$2/icd/nvidia.icd"
      export OCL_ICD_VENDORS=$2/icd
    fi
  fi
}

# bench_start NAME ARGS...: the options ARGS of NAME-run.sh, [--quick]
# [--out DIR], into QUICK (yes or no) and OUT (default NAME-results
# beside the script, in $here; made, with logs/ and an empty notes.txt),
# its program bin/NAME-flat into BIN, then bench_device_env.  Exits on a
# bad option or a missing program.
bench_start ()
{
  name=$1
  shift
  usage="usage: $0 [--quick] [--out DIR]"
  quick=no
  out=$here/$name-results
  while [ $# -gt 0 ]; do
    case $1 in
      --quick) quick=yes ;;
      --out) [ $# -ge 2 ] || { echo "$usage" >&2; exit 2; }; out=$2; shift ;;
      *) echo "$usage" >&2; exit 2 ;;
    esac
    shift
  done
  mkdir -p "$out/logs" || exit 1
  out=$(cd "$out" && pwd)
  : >"$out/notes.txt"
  bin=$here/bin/$name-flat
  [ -x "$bin" ] || { echo "$name-run.sh: no $bin (bench/build.sh)" >&2
		     exit 1; }
  bench_device_env "$here" "$out" "$out/notes.txt"
}
