/* The public interface of libflat, the runtime that programs compiled with
   the Flat GCC plugin call into.  It is installed and included by the code
   the plugin generates; users need not call it themselves.

   The plugin rewrites each marked loop nest

     #pragma flat map
     for (int i = 0; i < n; i++)
       y[i] = a * x[i] + y[i];

   into

     static void *flat_state_7;
     if (flat_run (flat_package_7, &flat_state_7, n, a, x, y) != 0)
       for (int i = 0; i < n; i++)
         y[i] = a * x[i] + y[i];

   so the original loop stays the host fallback.  */

#ifndef FLAT_H
#define FLAT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Run one nest on the device chosen by the environment (FLAT_DEVICE ...).

   PACKAGE is the nest's package blob (codegen/package.h) as embedded by
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

#ifdef __cplusplus
}
#endif

#endif /* FLAT_H */
