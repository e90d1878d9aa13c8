/* The copies of data regions' arrays on the device slots of FLAT_DEVICES
   (devices.h), for nests split inside regions: each slot keeps the
   slices its nests touch, and the bytes move between slots only where a
   slice reads what another slot wrote (Note [Resident slices] in
   region_devices.c).  Every function takes the process lock's holder's
   entry E of flat_rt.present whose RES is set, selects the slots it
   needs and selects slot 0 again before it returns.  Addresses are the
   host's, inside [E->start, E->end).  */

#ifndef FLAT_RUNTIME_REGION_DEVICES_H
#define FLAT_RUNTIME_REGION_DEVICES_H

#include "present.h"

#include <stddef.h>
#include <stdint.h>

/* Whether the arrays of regions opened now get copies per slot: several
   slots are open.  Then E (not rows) gets its map, every byte held by
   SLOTS (0: by none yet).  -1 if memory ran out.  */
int flat_region_devices_init (flat_present_entry *e, unsigned slots);

/* Free E's copies on slots 1, 2, ... and its map.  */
void flat_region_devices_free (flat_present_entry *e);

/* Slot SLOT's copy of E into *BUFFER, allocated on the first call, with
   the bytes [LO, HI) the newest: copied from the slot that holds them
   where SLOT does not.  */
int flat_region_devices_fetch (flat_present_entry *e, int slot,
			       uintptr_t lo, uintptr_t hi, void **buffer,
			       char *err, size_t err_size);

/* SLOT alone holds the newest bytes [LO, HI): a nest on it wrote them,
   or they were copied to it from the host.  -1 if memory ran out.  */
int flat_region_devices_wrote (flat_present_entry *e, int slot,
			       uintptr_t lo, uintptr_t hi, char *err,
			       size_t err_size);

/* The newest bytes of [LO, HI) to the host, each from a slot that holds
   it (bytes no slot holds keep the host's).  The FLAT_LOG=2 line names
   DIRECTION and SECTION.  */
int flat_region_devices_gather (const flat_present_entry *e, uintptr_t lo,
				uintptr_t hi, const char *direction,
				const char *section, char *err,
				size_t err_size);

#endif /* FLAT_RUNTIME_REGION_DEVICES_H */
