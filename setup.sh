#!/bin/sh
# setup.sh: from a fresh checkout to a built Flat tree.
# Installs the Debian packages Flat needs (when missing, as root or via
# sudo), then autoreconf, configure and make in place.  Open MPI is for
# the tests of MPI jobs (testsuite/mpi-jacobi-test.sh) only.
set -e
cd "$(dirname "$0")"
gcc_major=$(gcc -dumpversion | cut -d. -f1)
packages="gcc g++ make autoconf automake libtool pkg-config \
gcc-$gcc_major-plugin-dev opencl-headers ocl-icd-opencl-dev pocl-opencl-icd \
libcunit1-dev openmpi-bin libopenmpi-dev"
missing=
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" \
    || missing="$missing $p"
done
if [ -n "$missing" ]; then
  echo "setup.sh: installing$missing"
  if [ "$(id -u)" -eq 0 ]; then sudo=; else sudo=sudo; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi
[ -x configure ] || autoreconf -fi
[ -f Makefile ] || ./configure
make -j"$(nproc 2>/dev/null || echo 2)"
