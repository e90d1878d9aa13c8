/* Diagnostics of the runtime on stderr: warnings (always) and the
   FLAT_LOG trace of what ran where (SPEC section 3).  */

#ifndef FLAT_RUNTIME_LOG_H
#define FLAT_RUNTIME_LOG_H

#include <stddef.h>
#include <stdint.h>

/* Set the FLAT_LOG level (0, 1 or 2); 0 until called.  */
void flat_log_init (int level);
/* Terminate the compiler log LOG of SIZE bytes (its last byte) and cut
   its trailing white space, for a message.  */
void flat_build_log_end (char *log, size_t size);
int flat_log_level (void);

/* Bytes S[0..LEN) for quoting in a message, into OUT (OUT_SIZE bytes,
   at least 16): printable ASCII as is, a backslash and every other byte
   as \\ and \xNN, and "..." in place of what does not fit.  Returns OUT.
   A value from the environment or a file, possibly binary, never
   reaches stderr raw:  "a\x7fELF\x02"...  */
const char *flat_escape (const char *s, size_t len, char *out,
			 size_t out_size);

/* "flat: warning: MESSAGE" on a line of its own.  */
void flat_warning (const char *fmt, ...)
  __attribute__ ((format (printf, 1, 2)));

/* Level 1: one line per nest execution,
   "flat: run NEST on BACKEND: VERSION (REASON)".  */
void flat_log_run (const char *nest, const char *backend,
		   const char *version, const char *reason);

/* Level 1, where the node-local rank of a job's process chose its
   device (ranks.h): "flat: device INDEX of N_DEVICES on BACKEND: DEVICE
   (HOW)", so that each process says which one it took.  */
void flat_log_device (const char *backend, int index, int n_devices,
		      const char *device, const char *how);

/* Level 2: what device INDEX (of BACKEND) did in a split execution of
   NEST: its iterations [LO, HI) of the outer loop and the bytes it
   received and sent back.  */
void flat_log_split (const char *nest, const char *backend, int index,
		     int64_t lo, int64_t hi, size_t bytes_in,
		     size_t bytes_out);

/* Level 2: one line per kernel launch and per transfer.  DIRECTION is
   "copyin" or "copyout", MEMS names the arrays the buffer holds ("x", or
   "a+b" when they overlap).  */
void flat_log_launch (const char *nest, const char *kernel, int64_t total,
		      size_t groups, size_t group_size);
void flat_log_transfer (const char *nest, const char *direction,
			const char *mems, size_t bytes);

/* Level 2: a data region's SECTION of BYTES page-locked in MS
   milliseconds, or not, for ERR: "flat: page-lock region a[0:n] 4194304
   bytes: locked in 0.412 ms" (Note [Pinned entries] in data.c).  */
void flat_log_pin (const char *section, size_t bytes, const char *err,
		   double ms);

/* Level 2: the program of NEST on BACKEND built, its binary from the
   kernel cache (CACHED) or from the compiler, in MS milliseconds:
   "flat: build NEST on BACKEND: compiled in MS ms" or "...: from the
   kernel cache in MS ms".  */
void flat_log_build (const char *nest, const char *backend, int cached,
		     double ms);

/* Level 2: the device start (startup.c) in the thread HOW names,
   "background" or "on demand": "flat: device start begins (HOW)", then
   "flat: device start ends (HOW): BACKEND after MS ms".  */
void flat_log_start_begins (const char *how);
void flat_log_start_ends (const char *how, const char *backend, double ms);

/* Level 2: the program exits before the background start opened the
   driver, which it then never does: "flat: device start not begun: the
   program exits first".  */
void flat_log_start_forgone (void);

#endif /* FLAT_RUNTIME_LOG_H */
