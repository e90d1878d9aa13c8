/* Which device slots (devices.h) hold the newest copy of which bytes of
   an array of a data region, when nests of the region are split over
   several devices (Note [Resident slices] in region_devices.c):

     [0, 4000) on slot 0            after copyin at region entry
     split nest writes [0, 2000) on slot 0, [2000, 4000) on slot 1:
     [0, 2000) {0}  [2000, 4000) {1}
     the next nest's slice 0 reads [0, 2400): bytes [2000, 2400) go from
     slot 1 to slot 0:
     [0, 2000) {0}  [2000, 2400) {0, 1}  [2400, 4000) {1}

   A map of byte ranges of [0, size) to the set of slots that hold them,
   as a bit mask; 0 for bytes no device holds (a `create' array not yet
   written): the host's are the only ones.  */

#ifndef FLAT_RUNTIME_RESIDENCY_H
#define FLAT_RUNTIME_RESIDENCY_H

#include <stddef.h>
#include <stdint.h>

typedef struct flat_residency_run
{
  uint64_t lo;			/* the run is [lo, next run's lo) */
  unsigned slots;		/* bit s: slot s holds the newest bytes */
} flat_residency_run;

typedef struct flat_residency
{
  uint64_t size;
  flat_residency_run *runs;	/* by lo, runs[0].lo == 0, neighbours
				   differ in slots */
  int n, cap;
} flat_residency;

/* R for SIZE bytes, all held by SLOTS.  -1 if memory ran out.  */
int flat_residency_init (flat_residency *r, uint64_t size, unsigned slots);
void flat_residency_clear (flat_residency *r);

/* The bytes [LO, HI) are held by SLOTS alone (written there, or written
   by the host and copied to them).  -1 if memory ran out (R unchanged).  */
int flat_residency_set (flat_residency *r, uint64_t lo, uint64_t hi,
			unsigned slots);

/* Slot SLOT holds the bytes [LO, HI) too, where some slot held them (a
   copy to SLOT).  -1 if memory ran out (R unchanged).  */
int flat_residency_add (flat_residency *r, uint64_t lo, uint64_t hi,
			int slot);

/* FN (DATA, lo, hi, slots) for each run of R within [LO, HI), in order,
   cut to [LO, HI); stops at the first nonzero return and returns it.  */
int flat_residency_each (const flat_residency *r, uint64_t lo, uint64_t hi,
			 int (*fn) (void *data, uint64_t lo, uint64_t hi,
				    unsigned slots),
			 void *data);

#endif /* FLAT_RUNTIME_RESIDENCY_H */
