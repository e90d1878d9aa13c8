/* The public interface of libflat, the runtime that programs compiled with
   the Flat GCC plugin call into.  It is installed and included by the code
   the plugin generates; users need not call it themselves.

   The plugin rewrites each marked loop nest

     #pragma flat map
     for (int i = 0; i < n; i++)
       y[i] = a * x[i] + y[i];

   into

     if (flat_run (__flat_pkg_7, &__flat_state_7, n, a, x, y) != 0)
       for (int i = 0; i < n; i++)
         y[i] = a * x[i] + y[i];

   where __flat_pkg_7 (the nest's package, in the ELF section
   .flat_packages) and __flat_state_7 (a void *, NULL at first) are
   static variables of the file, so the original loop stays the host
   fallback.  */

#ifndef FLAT_H
#define FLAT_H

#include "flat_data_kind.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Run one nest on the device chosen by the environment (FLAT_DEVICE ...).

   PACKAGE is the nest's package blob (flatten/package.h) as embedded by
   the plugin.  STATE points to a per-nest pointer that must start out
   NULL and must be passed again on every later call for the same nest;
   libflat keeps the parsed nest, its compiled kernels and its failure
   status there for the life of the process.

   The remaining arguments are the nest's parameters in the order of the
   package's plan: each scalar by value, after C's default argument
   promotions (integer types narrower than int as int, float as double),
   each array as a pointer to its element 0.

   Returns 0 when the nest ran on a device and the arrays hold its
   results (also when it had no work at all), nonzero when the caller must
   run its original loop: the host was chosen, no device exists, or a
   device step failed (then a warning has been printed once for the nest
   and it stays on the host for the rest of the process).  Never aborts.
   Calls may come from several threads; device work is serialised.  */
int flat_run (const unsigned char *package, void **state, ...);

/* Data regions (SPEC section 2.5).  The plugin rewrites

     #pragma flat data copy(a[0:n]) create(t[0:n])
     body
     #pragma flat update host(a[0:n])

   into

     flat_data_begin (2, FLAT_DATA_COPY, "a[0:n]", &a[0], n * sizeof *a,
                      FLAT_DATA_CREATE, "t[0:n]", &t[0], n * sizeof *t);
     body                          (left in any way: end runs)
     flat_data_end (2, FLAT_DATA_COPY, "a[0:n]", &a[0], n * sizeof *a,
                    FLAT_DATA_CREATE, "t[0:n]", &t[0], n * sizeof *t);
     flat_update (1, FLAT_UPDATE_HOST, "a[0:n]", &a[0], n * sizeof *a);

   Each of the N clause items after N is four arguments: an int, one of
   flat_data_kind (flat_data_kind.h: FLAT_DATA_COPYIN .. FLAT_DATA_PRESENT
   here); the section as the pragma wrote it (a string that outlives the
   region, such as a literal), which messages and the FLAT_LOG=2 trace
   name it by; a pointer to the section's first element; the section's
   length in bytes as unsigned long long.  A section of a table of rows,
   `a[lo:n][col_lo:m]' of `T **a', has FLAT_DATA_ROWS added to its kind,
   the row pointers &a[lo] .. &a[lo + n - 1] as its start and length,
   and three more unsigned long long arguments: col_lo, m and the size of
   a T; the box of those rows and columns is what goes to the device.
   flat_data_end must get the same items as the flat_data_begin it
   closes.  */

/* Enter a data region.  A section already on the device (inside an
   enclosing region's section) is counted once more and not copied;
   otherwise a device copy is made, copied to for copyin and copy.  Until
   the matching flat_data_end, every nest whose arrays lie inside such a
   copy works on it, with no transfer; host code that reads or writes
   those arrays in between needs flat_update.  A present section that is
   not on the device is a warning.  */
void flat_data_begin (int n, ...);

/* Leave the data region that the flat_data_begin with the same items
   entered.  A section's device copy goes away when the last region
   holding it ends, copied to the host first if the region that made it
   said copyout or copy.  */
void flat_data_end (int n, ...);

/* Copy sections that are on the device to the host (FLAT_UPDATE_HOST)
   or to the device (FLAT_UPDATE_DEVICE).  A section that is not on the
   device is a warning and is left alone.

   On the host backend the three functions do nothing, as the original
   loops work on host memory.  If the device fails while regions are open
   (a kernel build, a transfer, device memory), the sections come back to
   the host with one warning and the process runs on the host from then
   on; the results stay right.  Never abort.  */
void flat_update (int n, ...);

/* The address on the device of host address P (SPEC section 2.5), for
   a device library that takes device memory, such as a CUDA-aware MPI:
   where P lies in an array of an open data region, the address of its
   device copy's byte for P.  NULL where P lies in no region's array, or
   where the device's memory has no address the host may pass on (an
   OpenCL device: its buffers are handles).  In a process that runs its
   nests on the host (FLAT_DEVICE=host, no device, after a device
   failure), the host is the device and every array is there: P itself.
   `#pragma flat host_data use_device(a)' calls it for each array it
   names.  Starts the device if it has not started.  */
void *flat_deviceptr (const void *p);

/* The SIZE (at most 8) bytes at P, the value of a scalar that a nest's
   call reads from memory (a marked loop's bound such as `*count', a
   struct's member): from the device copy where P lies in an array of an
   open data region that holds data there, else from P (Note [Host reads
   of region arrays] in host_read.c).  The bytes are the low end of the
   result.  */
unsigned long long flat_read_scalar (const void *p, unsigned long size);

/* A marked loop that the plugin could not lift runs on the host copies
   of its arrays (SPEC section 2.5).  The plugin brackets it as

     flat_host_loop_begin (2, FLAT_HOST_LOOP_ARRAY, "a", a, 1ull,
                           FLAT_HOST_LOOP_ARRAY, "b", b, 1ull);
     loop                          (left in any way: end runs)
     flat_host_loop_end (2, ...the same items...);

   where each item names the array holding the byte at its start (a
   pointer the loop indexes).  An array of an open data region comes back
   to the host at begin and goes to the device at end; until then nests
   treat it as absent (they copy it themselves).  Arrays outside every
   region are left alone, and neither call starts the device.  */
void flat_host_loop_begin (int n, ...);
void flat_host_loop_end (int n, ...);

#ifdef __cplusplus
}
#endif

#include "flat_host.h"

#endif /* FLAT_H */
