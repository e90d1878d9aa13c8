/* NVRTC, the CUDA runtime compiler, as the CUDA backend and the build
   check of generated CUDA (testsuite/nvrtc_check.c) both use it: opened
   with dlopen, never linked, so that nothing needs the CUDA toolkit
   unless CUDA is used.  Not thread-safe; the library stays loaded once
   opened.

     flat_nvrtc_open ()                          finds libnvrtc
     flat_nvrtc_arch (90, &arch)                 90: sm_90 is supported
     flat_nvrtc_options (arch, FLAT_NVRTC_CUBIN, ...)
       -> "--gpu-architecture=sm_90 -default-device"
     flat_nvrtc_compile (source, "k.cu", options, FLAT_NVRTC_CUBIN, ...)
       -> the CUBIN, or the compiler's log in ERR  */

#ifndef FLAT_RUNTIME_NVRTC_H
#define FLAT_RUNTIME_NVRTC_H

#include <stddef.h>

/* What a compilation produces: PTX for a virtual architecture
   (compute_XY), which the driver compiles further for any device at least
   as new, or CUBIN machine code for one real architecture (sm_XY).  */
typedef enum flat_nvrtc_output
{
  FLAT_NVRTC_PTX,
  FLAT_NVRTC_CUBIN
} flat_nvrtc_output;

/* Load NVRTC unless it is loaded: libnvrtc.so, .so.13, .so.12 from the
   library path, then from /usr/local/cuda/lib64 and $CUDA_HOME/lib64.
   On failure ERR says what was tried.  */
int flat_nvrtc_open (char *err, size_t err_size);

/* Version of the loaded NVRTC ("13.0" is 13 and 0).  */
int flat_nvrtc_version (int *major, int *minor, char *err, size_t err_size);

/* The architecture to compile for a device of compute capability WANT
   (major * 10 + minor, e.g. 90): in *ARCH the newest one NVRTC supports
   that is not newer than WANT.  Returns 0 if that is WANT itself, 1 if
   it is older (PTX for it runs on the device), or -1 if NVRTC supports
   nothing that old; *ARCH is then its oldest architecture.  */
int flat_nvrtc_arch (int want, int *arch, char *err, size_t err_size);

/* The options of Flat's kernels for ARCH and OUTPUT into BUF: the target
   architecture and functions on the device by default.  Contraction into
   fma (--fmad) is the package's, per nest (flat_cuda_build_options).  Returns -1 if they
   do not fit.  */
int flat_nvrtc_options (int arch, flat_nvrtc_output output, char *buf,
			size_t size);

/* Compile SOURCE, called NAME in messages, with OPTIONS (separated by
   spaces) into OUTPUT, which must match the architecture in OPTIONS.
   *BINARY gets the malloc'ed result (PTX with its NUL) and *SIZE its
   bytes.  On failure ERR names the call and NVRTC's error, followed by
   the compiler's log.  */
int flat_nvrtc_compile (const char *source, const char *name,
			const char *options, flat_nvrtc_output output,
			unsigned char **binary, size_t *size, char *err,
			size_t err_size);

#endif /* FLAT_RUNTIME_NVRTC_H */
