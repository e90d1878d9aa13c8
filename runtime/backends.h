/* The registry of backends and the choice among them (FLAT_DEVICE).  */

#ifndef FLAT_RUNTIME_BACKENDS_H
#define FLAT_RUNTIME_BACKENDS_H

#include "backend.h"
#include "env.h"

/* Open the backend ENV asks for and return it (the host backend when no
   device can be opened).  REASON gets why the host was chosen ("no
   device: ..."), for FLAT_LOG.  Warns on stderr when the device named by
   FLAT_DEVICE cannot be had, or the cache directory cannot be created.  */
const flat_backend *flat_backend_choose (const flat_env *env, char *reason,
					 size_t reason_size);

#endif /* FLAT_RUNTIME_BACKENDS_H */
