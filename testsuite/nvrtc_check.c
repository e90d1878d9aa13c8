/* nvrtc_check: compile CUDA sources with NVRTC the way the CUDA backend
   does (runtime/nvrtc.h: same library search, same options), for several
   architectures, so that invalid generated CUDA fails a test on a machine
   without a GPU.  cuda-check.sh feeds it every kernel the plugin dumps.

     nvrtc_check [-a ARCH]... FILE.cu...     (default: -a 90 -a 70)

   Each ARCH is a compute capability (90 for compute_90); one that NVRTC
   no longer supports (70 since CUDA 13) is replaced by NVRTC's oldest,
   with a note.  Exit status: 0 all compiled, 1 some did not (NVRTC's log
   is printed), 77 NVRTC cannot be loaded, 99 bad usage or unreadable
   file.  */

#include "../runtime/nvrtc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARCHS 8

/* The contents of PATH, NUL-terminated and malloc'ed; NULL on error.  */
static char *
read_text (const char *path)
{
  FILE *f = fopen (path, "rb");
  char *text = NULL;
  long size;

  if (!f)
    return NULL;
  if (fseek (f, 0, SEEK_END) == 0 && (size = ftell (f)) >= 0
      && fseek (f, 0, SEEK_SET) == 0 && (text = malloc (size + 1)) != NULL)
    {
      if (fread (text, 1, size, f) != (size_t) size)
	{
	  free (text);
	  text = NULL;
	}
      else
	text[size] = '\0';
    }
  if (fclose (f) != 0)
    {
      free (text);
      text = NULL;
    }
  return text;
}

/* Replace each wanted architecture in ARCHS by the one NVRTC compiles
   for it.  */
static int
resolve_archs (int *archs, int n)
{
  char err[512];
  int i, arch, fit;

  for (i = 0; i < n; i++)
    {
      arch = -1;
      fit = flat_nvrtc_arch (archs[i], &arch, err, sizeof err);
      if (fit < 0 && arch < 0)
	{
	  fprintf (stderr, "nvrtc_check: %s\n", err);
	  return -1;
	}
      if (arch != archs[i])
	printf ("nvrtc_check: NVRTC has no compute_%d; checking compute_%d "
		"instead\n", archs[i], arch);
      archs[i] = arch;
    }
  return 0;
}

/* Compile FILE for each of the N ARCHS; the number of failures, or -1
   if FILE cannot be read.  */
static int
check_file (const char *file, const int *archs, int n)
{
  static char err[1 << 16];
  char options[256];
  unsigned char *ptx;
  size_t size;
  char *source = read_text (file);
  int i, failed = 0;

  if (!source)
    {
      fprintf (stderr, "nvrtc_check: cannot read %s\n", file);
      return -1;
    }
  for (i = 0; i < n; i++)
    {
      if (flat_nvrtc_options (archs[i], FLAT_NVRTC_PTX, options,
			      sizeof options) != 0)
	{
	  fprintf (stderr, "nvrtc_check: options too long\n");
	  failed++;
	  continue;
	}
      if (flat_nvrtc_compile (source, file, options, FLAT_NVRTC_PTX, &ptx,
			      &size, err, sizeof err) != 0)
	{
	  printf ("FAIL: %s: %s\n", file, err);
	  failed++;
	  continue;
	}
      free (ptx);
    }
  free (source);
  return failed;
}

int
main (int argc, char **argv)
{
  int archs[MAX_ARCHS], n_archs = 0, i, failed = 0, files = 0;
  int major, minor;
  char err[1024];

  for (i = 1; i < argc && strcmp (argv[i], "-a") == 0; i += 2)
    {
      if (i + 1 >= argc || n_archs == MAX_ARCHS
	  || (archs[n_archs++] = atoi (argv[i + 1])) <= 0)
	{
	  fprintf (stderr, "usage: nvrtc_check [-a ARCH]... FILE.cu...\n");
	  return 99;
	}
    }
  if (n_archs == 0)
    {
      archs[n_archs++] = 90;
      archs[n_archs++] = 70;
    }
  if (flat_nvrtc_open (err, sizeof err) != 0
      || flat_nvrtc_version (&major, &minor, err, sizeof err) != 0)
    {
      printf ("SKIP: nvrtc_check: %s\n", err);
      return 77;
    }
  if (resolve_archs (archs, n_archs) != 0)
    return 1;
  for (; i < argc; i++, files++)
    {
      int n = check_file (argv[i], archs, n_archs);

      if (n < 0)
	return 99;
      failed += n;
    }
  printf ("nvrtc_check: NVRTC %d.%d, %d file(s), %d failure(s) for", major,
	  minor, files, failed);
  for (i = 0; i < n_archs; i++)
    printf (" compute_%d", archs[i]);
  printf ("\n");
  return failed > 0 ? 1 : 0;
}
