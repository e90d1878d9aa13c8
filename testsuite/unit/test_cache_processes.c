/* Unit tests of the kernel cache under processes that store and load
   one entry at the same time (Note [Many processes, one cache] in
   runtime/cache.c): writers store the entry again and again, each with
   data of its own under the same key, while the test loads it.  Every
   load finds a whole entry, the data of one store, never a miss nor a
   mix of two, and no temporary file outlives the writers.  A store that
   wrote in place would be caught: a load would see a file cut short or
   two stores' bytes.  */

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <CUnit/CUnit.h>

#include "runtime/cache.h"
#include "helpers.h"
#include "unit.h"

#define WRITERS 4
#define STORES 60
#define DATA_SIZE ((size_t) 256 << 10)

static const char key[] = "6:opencl\n4:race\n";

/* Writer W: STORES stores of DATA_SIZE bytes of value W + 1; exit 0 if
   all succeeded.  */
static void
writer (const char *dir, int w)
{
  unsigned char *data = malloc (DATA_SIZE);
  char err[512];
  int k;

  if (!data)
    _exit (2);
  memset (data, w + 1, DATA_SIZE);
  for (k = 0; k < STORES; k++)
    if (flat_cache_store (dir, key, data, DATA_SIZE, err, sizeof err) != 0)
      {
	fprintf (stderr, "writer %d: %s\n", w, err);
	_exit (1);
      }
  _exit (0);
}

/* Whether DATA (SIZE bytes) is what one writer stores.  */
static int
one_store (const unsigned char *data, size_t size)
{
  size_t i;

  if (size != DATA_SIZE || data[0] < 1 || data[0] > WRITERS)
    return 0;
  for (i = 1; i < size; i++)
    if (data[i] != data[0])
      return 0;
  return 1;
}

static void
test_stores_and_loads (void)
{
  char *dir = make_temp_dir ();
  char listing[4096], err[512];
  unsigned char *first, *loaded;
  pid_t pids[WRITERS];
  size_t size;
  int w, status, loads = 0, whole = 0, running = WRITERS;

  CU_ASSERT_PTR_NOT_NULL_FATAL (dir);
  first = calloc (1, DATA_SIZE);
  CU_ASSERT_PTR_NOT_NULL_FATAL (first);
  memset (first, 1, DATA_SIZE);
  CU_ASSERT_EQUAL_FATAL (flat_cache_store (dir, key, first, DATA_SIZE, err,
					   sizeof err), 0);
  free (first);
  fflush (NULL);
  for (w = 0; w < WRITERS; w++)
    {
      pids[w] = fork ();
      if (pids[w] == 0)
	writer (dir, w);
      CU_ASSERT_FATAL (pids[w] > 0);
    }
  /* Load while any writer runs.  */
  while (running > 0)
    {
      loads++;
      if (flat_cache_load (dir, key, &loaded, &size) == 0)
	{
	  whole += one_store (loaded, size);
	  free (loaded);
	}
      for (w = 0; w < WRITERS; w++)
	if (pids[w] > 0 && waitpid (pids[w], &status, WNOHANG) == pids[w])
	  {
	    CU_ASSERT (WIFEXITED (status) && WEXITSTATUS (status) == 0);
	    pids[w] = 0;
	    running--;
	  }
    }
  CU_ASSERT (loads > 0);
  CU_ASSERT_EQUAL (whole, loads);

  list_dir (dir, listing, sizeof listing);
  CU_ASSERT_EQUAL (strlen (listing), 16 + 4 + 1);
  CU_ASSERT_PTR_NULL (strstr (listing, ".tmp-"));
  remove_dir (dir);
  free (dir);
}

void
flat_test_register_cache_processes (void)
{
  CU_pSuite s = CU_add_suite ("runtime cache, processes", NULL, NULL);

  CU_add_test (s, "stores and loads at once", test_stores_and_loads);
}
