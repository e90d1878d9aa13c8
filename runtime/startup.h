/* The device start: choosing and opening the backend of the process
   (backends.h), off the path of the nests (FLAT_EAGER, SPEC section 3).
   process.c asks for it; the caller holds the process lock (process.h)
   in every function here but flat_startup_in_starter and
   flat_startup_guard_exit.  */

#ifndef FLAT_RUNTIME_STARTUP_H
#define FLAT_RUNTIME_STARTUP_H

#include "backend.h"
#include "env.h"

#include <stddef.h>

/* Start choosing and opening the backend for ENV in a background
   thread, which first runs BEFORE unless it is NULL.  ENV's strings
   must live until flat_startup_take.  Nothing happens when no thread
   can be had: flat_startup_take then returns NULL.  */
void flat_startup_begin (const flat_env *env, void (*before) (void));

/* The backend of the background start, waiting for it to end, with why
   it is the host in REASON (REASON_SIZE bytes); NULL when no start was
   begun since the last take.  */
const flat_backend *flat_startup_take (char *reason, size_t reason_size);

/* Whether the background start is under way: its result not ready yet,
   so that flat_startup_take would wait.  */
int flat_startup_running (void);

/* The backend for ENV, chosen and opened in this thread ("on demand"),
   as flat_startup_take gives it.  */
const flat_backend *flat_startup_now (const flat_env *env, char *reason,
				      size_t reason_size);

/* Whether this thread is the background one: a fork there is the
   driver's, the child execs, and the fork handlers take no lock.  */
int flat_startup_in_starter (void);

/* Make exit() from this thread, and the end of this thread, wait for a
   start under way first (Note [Exit during the start] in startup.c).
   Once per thread; the lock need not be held.  */
void flat_startup_guard_exit (void);

/* Fork handlers of process.c (Note [fork] there), in the thread that
   forks, which holds no start lock: prepare waits out the background
   thread's short use of its state, parent releases it.  In the child
   the background thread is gone: child forgets its start and returns
   whether it left a device open or half open.  */
void flat_startup_fork_prepare (void);
void flat_startup_fork_parent (void);
int flat_startup_fork_child (void);

#endif /* FLAT_RUNTIME_STARTUP_H */
