/* One run of the program under flat-tune, for the threshold search
   (tune_search.c) and the host/device entries (tune_sides.c) alike: the
   settings in the environment, FLAT_LOG=1 and FLAT_PROFILE=1, its stderr
   kept for them to read, a time limit.  */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tune.h"

static double
now (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

int
tune_log_open (void)
{
  char path[] = "/tmp/flat-tune-XXXXXX";
  int fd = mkstemp (path);

  if (fd >= 0)
    unlink (path);
  return fd;
}

double
tune_run (char **argv, const char *settings, const char *tuning, int log_fd,
	  double timeout)
{
  if (ftruncate (log_fd, 0) != 0 || lseek (log_fd, 0, SEEK_SET) != 0)
    return -1;
  double start = now ();
  pid_t pid = fork ();
  if (pid < 0)
    return -1;
  if (pid == 0)
    {
      char *copy = strdup (settings), *save = NULL;
      int null = open ("/dev/null", O_WRONLY);
      for (char *tok = copy ? strtok_r (copy, " ", &save) : NULL; tok;
	   tok = strtok_r (NULL, " ", &save))
	putenv (tok);
      if (tuning)
	setenv ("FLAT_TUNING", tuning, 1);
      setenv ("FLAT_LOG", "1", 1);
      setenv ("FLAT_PROFILE", "1", 1);
      if (null >= 0)
	dup2 (null, 1);
      dup2 (log_fd, 2);
      execvp (argv[0], argv);
      _exit (127);
    }
  for (;;)
    {
      int status;
      pid_t r = waitpid (pid, &status, WNOHANG);
      if (r == pid)
	return WIFEXITED (status) && WEXITSTATUS (status) == 0
	  ? now () - start : -1;
      if (r < 0 && errno != EINTR)
	return -1;
      if (now () - start > timeout)
	{
	  kill (pid, SIGKILL);
	  waitpid (pid, &status, 0);
	  return -1;
	}
      struct timespec ms = { 0, 1000000 };
      nanosleep (&ms, NULL);
    }
}

FILE *
tune_run_log (int log_fd)
{
  int fd = dup (log_fd);
  FILE *log = fd >= 0 ? fdopen (fd, "r") : NULL;

  if (!log && fd >= 0)
    close (fd);
  if (log)
    rewind (log);
  return log;
}
