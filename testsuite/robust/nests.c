/* The program of the robustness tests (fork-test.sh, hostile-env-test.sh,
   eager-test.sh): a map and a reduction on integers, so that every
   version gives the same bits, run in one of these ways (argv[1]):

     plain    once
     paced    once, pausing PAUSE_MS between rounds, so that a device
              starting in the background ends among them
     fork     once, then in a child of fork() and again in the parent;
              another thread runs nests all along, so it may be inside
              libflat at the fork; the child ends with exit(), running
              the destructors of whatever it inherited
     threads  by 4 threads at once, each on arrays of its own
     exit     not at all: main returns at once, while libflat may still
              be starting the device
     exit-thread  once by a thread, which then calls exit() at once

   argv[2], if given, is the size.  Prints one checksum per run.  */

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define THREADS 4
#define ROUNDS 20
#define PAUSE_MS 20

static int n = 100000;

static void
step (int n, int *a, int k)
{
#pragma flat map
  for (int i = 0; i < n; i++)
    a[i] = (a[i] * 3 + i + k) % 1000003;
}

static long
sum (int n, const int *a)
{
  long s = 0;

#pragma flat reduce(+: s)
  for (int i = 0; i < n; i++)
    s += a[i];
  return s;
}

/* The checksum of ROUNDS steps from zeros, K the first step's, with a
   pause of PAUSE milliseconds after each round.  */
static long
work_paced (int k, int pause)
{
  int *a = calloc (n, sizeof *a);
  long s = 0;

  if (!a)
    {
      perror ("calloc");
      exit (2);
    }
  for (int r = 0; r < ROUNDS; r++)
    {
      step (n, a, k + r);
      s = s * 31 % 1000000007 + sum (n, a);
      if (pause > 0)
	usleep ((useconds_t) pause * 1000);
    }
  free (a);
  return s;
}

static long
work (int k)
{
  return work_paced (k, 0);
}

static void *
thread (void *arg)
{
  long *s = arg;

  *s = work ((int) *s);
  return NULL;
}

static void *
one_step_then_exit (void *arg)
{
  int *a = calloc (n, sizeof *a);

  (void) arg;
  if (!a)
    {
      perror ("calloc");
      exit (2);
    }
  step (n, a, 0);
  printf ("%ld\n", sum (n, a));
  exit (0);
}

int
main (int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "plain";

  if (argc > 2)
    n = atoi (argv[2]);
  if (strcmp (mode, "plain") == 0)
    printf ("%ld\n", work (0));
  else if (strcmp (mode, "paced") == 0)
    printf ("%ld\n", work_paced (0, PAUSE_MS));
  else if (strcmp (mode, "fork") == 0)
    {
      int status;
      pid_t child;
      pthread_t busy;
      long busy_sum = 3;

      printf ("before %ld\n", work (0));
      fflush (stdout);
      if (pthread_create (&busy, NULL, thread, &busy_sum) != 0)
	return 2;
      usleep (1000);
      child = fork ();
      if (child < 0)
	{
	  perror ("fork");
	  return 2;
	}
      if (child == 0)
	{
	  printf ("child %ld\n", work (1));
	  exit (0);
	}
      if (waitpid (child, &status, 0) != child || !WIFEXITED (status)
	  || WEXITSTATUS (status) != 0)
	{
	  fprintf (stderr, "the child failed\n");
	  return 1;
	}
      printf ("parent %ld\n", work (2));
      pthread_join (busy, NULL);
      printf ("busy %ld\n", busy_sum);
    }
  else if (strcmp (mode, "threads") == 0)
    {
      pthread_t t[THREADS];
      long s[THREADS];

      for (int i = 0; i < THREADS; i++)
	{
	  s[i] = i;
	  if (pthread_create (&t[i], NULL, thread, &s[i]) != 0)
	    return 2;
	}
      for (int i = 0; i < THREADS; i++)
	{
	  pthread_join (t[i], NULL);
	  printf ("thread %d %ld\n", i, s[i]);
	}
    }
  else if (strcmp (mode, "exit-thread") == 0)
    {
      pthread_t t;

      if (pthread_create (&t, NULL, one_step_then_exit, NULL) != 0)
	return 2;
      pthread_join (t, NULL);
    }
  else if (strcmp (mode, "exit") != 0)
    {
      fprintf (stderr, "usage: nests [plain|paced|fork|threads|exit|"
	       "exit-thread] [size]\n");
      return 2;
    }
  return 0;
}
