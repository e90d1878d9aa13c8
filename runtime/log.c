/* Diagnostics of the runtime, so that every message has the same "flat: "
   prefix and the FLAT_LOG levels are decided in one place.  The testsuite
   greps these lines, e.g.

     flat: run saxpy.c:12 on opencl: k0 (pthread-haswell)
     flat: device 1 of 2 on cuda: NVIDIA H100 (sm_90) (node-local rank 3
           (OMPI_COMM_WORLD_LOCAL_RANK) modulo 2 devices)
     flat: launch saxpy.c:12 k0 total=1000 groups=4 x 256
     flat: copyin saxpy.c:12 x 4000 bytes
     flat: split saxpy.c:12 on opencl device 1: iterations [500, 1000),
           copyin 4000 bytes, copyout 2000 bytes
     flat: device start begins (background)

   so their shape is part of the interface.  */

#include "log.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int log_level;

void
flat_log_init (int level)
{
  log_level = level;
}

void
flat_build_log_end (char *log, size_t size)
{
  size_t len;

  log[size - 1] = '\0';
  for (len = strlen (log); len > 0 && strchr (" \t\r\n", log[len - 1]);
       len--)
    log[len - 1] = '\0';
}

int
flat_log_level (void)
{
  return log_level;
}

const char *
flat_escape (const char *s, size_t len, char *out, size_t out_size)
{
  static const char hex[] = "0123456789abcdef";
  size_t i, used = 0;

  for (i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      int plain = c >= 0x20 && c < 0x7f && c != '\\';

      /* Room for this byte's form, "..." and the NUL.  */
      if (used + (plain ? 1 : 4) + 4 > out_size)
	{
	  memcpy (out + used, "...", 3);
	  used += 3;
	  break;
	}
      if (plain)
	out[used++] = (char) c;
      else if (c == '\\')
	{
	  out[used++] = '\\';
	  out[used++] = '\\';
	}
      else
	{
	  out[used++] = '\\';
	  out[used++] = 'x';
	  out[used++] = hex[c >> 4];
	  out[used++] = hex[c & 15];
	}
    }
  out[used] = '\0';
  return out;
}

/* One line, written at once: other threads, and a parent or child of
   fork() writing to the same stderr, cannot cut into it (glibc writes one
   fprintf to unbuffered stderr with one write).  */
void
flat_warning (const char *fmt, ...)
{
  char msg[1024];
  va_list ap;

  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  fprintf (stderr, "flat: warning: %s\n", msg);
}

void
flat_log_run (const char *nest, const char *backend, const char *version,
	      const char *reason)
{
  if (log_level >= 1)
    fprintf (stderr, "flat: run %s on %s: %s (%s)\n", nest, backend,
	     version, reason);
}

void
flat_log_device (const char *backend, int index, int n_devices,
		 const char *device, const char *how)
{
  if (log_level >= 1)
    fprintf (stderr, "flat: device %d of %d on %s: %s (%s)\n", index,
	     n_devices, backend, device, how);
}

void
flat_log_split (const char *nest, const char *backend, int index,
		int64_t lo, int64_t hi, size_t bytes_in, size_t bytes_out)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: split %s on %s device %d: iterations [%" PRId64
	     ", %" PRId64 "), copyin %zu bytes, copyout %zu bytes\n", nest,
	     backend, index, lo, hi, bytes_in, bytes_out);
}

void
flat_log_launch (const char *nest, const char *kernel, int64_t total,
		 size_t groups, size_t group_size)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: launch %s %s total=%" PRId64 " groups=%zu x %zu\n",
	     nest, kernel, total, groups, group_size);
}

void
flat_log_transfer (const char *nest, const char *direction,
		   const char *mems, size_t bytes)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: %s %s %s %zu bytes\n", direction, nest, mems,
	     bytes);
}

void
flat_log_pin (const char *section, size_t bytes, const char *err, double ms)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: page-lock region %s %zu bytes: %s in %.3f ms\n",
	     section, bytes, err ? err : "locked", ms);
}

void
flat_log_build (const char *nest, const char *backend, int cached, double ms)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: build %s on %s: %s in %.1f ms\n", nest, backend,
	     cached ? "from the kernel cache" : "compiled", ms);
}

void
flat_log_start_begins (const char *how)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: device start begins (%s)\n", how);
}

void
flat_log_start_ends (const char *how, const char *backend, double ms)
{
  if (log_level >= 2)
    fprintf (stderr, "flat: device start ends (%s): %s after %.1f ms\n",
	     how, backend, ms);
}

void
flat_log_start_forgone (void)
{
  if (log_level >= 2)
    fputs ("flat: device start not begun: the program exits first\n",
	   stderr);
}
