/* flat-kcc, the kernel compiler in a process of its own (Note [Kernel
   builds in a helper] in backend_opencl.c), and the protocol between it
   and libflat.

     libflat                                 flat-kcc INDEX PLATFORM
                                                      DEVICE DRIVER OPTIONS
     kernel source  ---- its stdin ---->     opens the device as libflat
                                             did, builds the source
                    <--- its stdout ----     DATA, then the trailer:
                                               "FLATKCC" KIND  (8 bytes)
                                               size of DATA    (8 bytes)

   KIND 'B': DATA is the program binary; 'E': DATA is the message of the
   failure (a build log).  Output without a whole trailer means that the
   helper died: its exit status says how.  */

#ifndef FLAT_RUNTIME_KCC_H
#define FLAT_RUNTIME_KCC_H

#include <stddef.h>

#define FLAT_KCC_TRAILER_SIZE 16

/* The path of the flat-kcc that goes with this libflat (beside it in a
   build tree, else the installed one), or NULL if there is none.  */
const char *flat_kcc_path (void);

/* Run flat-kcc at PATH with ARGV (NULL-terminated, argv[0] first) and
   INPUT (SIZE bytes) on its stdin.  0 and the binary in *OUT
   (malloc'ed, *OUT_SIZE bytes); -1 with ERR saying why: the helper's
   message, or how it died ("killed by signal 6 (Aborted)").  */
int flat_kcc_run (const char *path, char *const argv[], const char *input,
		  size_t size, unsigned char **out, size_t *out_size,
		  char *err, size_t err_size);

/* In flat-kcc: write DATA (SIZE bytes) and the trailer of KIND ('B' or
   'E') on stdout.  0, or -1 if writing failed.  */
int flat_kcc_reply (char kind, const void *data, size_t size);

/* The main function of flat-kcc (backend_opencl.c).  */
int flat_opencl_kcc_main (int argc, char **argv);

#endif /* FLAT_RUNTIME_KCC_H */
