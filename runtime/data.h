/* What nest executions (run.c) need of the data regions of data.c,
   besides looking their arrays up in flat_rt.present.  */

#ifndef FLAT_RUNTIME_DATA_H
#define FLAT_RUNTIME_DATA_H

/* Under the lock, with data regions holding arrays on the device: WHO's
   step WHAT failed with ERR, or WHO must run on the host where it could
   touch those arrays.  One warning; every array of the regions whose
   device copy holds data comes back to the host, the device is released
   and the process runs on the host from now on, where data regions do
   nothing (see Note [Leaving the device] in data.c).  */
void flat_data_leave_device (const char *who, const char *what,
			     const char *err);

/* Release the page lock of entry E of the present table, if it has
   one (Note [Pinned entries] in data.c), before E leaves the table or
   the device closes.  */
struct flat_present_entry;
void flat_data_unpin (struct flat_present_entry *e);

#endif /* FLAT_RUNTIME_DATA_H */
