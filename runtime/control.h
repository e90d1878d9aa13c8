/* Private controls of libflat for its tests and benchmarks: not part of
   the installed interface.  */

#ifndef FLAT_RUNTIME_CONTROL_H
#define FLAT_RUNTIME_CONTROL_H

/* Free a nest state that flat_run created in *STATE, and its device
   program; *STATE becomes NULL.  */
void flat_state_free (void **state);

/* Back to the state of a fresh process: pooled buffers freed, the backend
   shut down, settings forgotten.  The next flat_run reads the environment
   and chooses the backend again; states kept from before rebuild their
   programs.  Returns -1 if the backend reported an error on shutdown.  */
int flat_reset (void);

#endif /* FLAT_RUNTIME_CONTROL_H */
